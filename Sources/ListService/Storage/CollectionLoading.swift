import Basics
import Dispatch
import Foundation

/// Loading a collection's data file into a `CollectionState`.
package enum CollectionLoading {
    /// Reads the collection's file from `directory`; the error names the file and the field.
    static func loadItems<C: ListCollection>(_ collection: C.Type, from directory: URL) throws(DataLoadError) -> [C.Item] {
        let file: MappedFile
        do {
            file = try MappedFile(path: directory.appendingPathComponent(C.fileName).path)
        } catch {
            throw DataLoadError(file: C.fileName, reason: "cannot be read (\(error))")
        }
        return try C.decodeItems(DataFileBytes(bytes: file.bytes, name: C.fileName, release: file.release))
    }
}

/// A data file's bytes as a collection decodes them.
package struct DataFileBytes {
    package let bytes: UnsafeRawBufferPointer
    /// The file's name, for errors.
    package let name: String
    /// Hands back the memory of bytes already parsed (a mapped file's pages), perhaps from
    /// several threads at once; nothing for bytes in memory.
    let release: @Sendable (Range<Int>) -> Void

    package init(bytes: UnsafeRawBufferPointer, name: String, release: @escaping @Sendable (Range<Int>) -> Void = { _ in }) {
        self.bytes = bytes
        self.name = name
        self.release = release
    }
}

/// A data file that cannot be served, said in one line: `orders.json: [17].total: is missing`.
package struct DataLoadError: Error, CustomStringConvertible, Sendable {
    package let file: String
    package let reason: String

    package init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    package var description: String { "\(file): \(reason)" }
}

/// Decodes the elements of a top-level JSON array one at a time, with errors that name the
/// file, the element and the field, and unique ids. A large file is decoded in parts on every
/// core at once (`decodeInParallel`).
package enum JSONArrayDecoding {
    /// `makeDecoder` is called once per part, perhaps on several threads at once: it makes a
    /// decoder with its own state (a string interner) and must touch nothing shared. A file
    /// smaller than `parallelFrom` bytes is decoded in one pass.
    package static func decode<Item: Sendable>(
        _ data: DataFileBytes, id: (Item) -> String, parallelFrom: Int = 8 << 20,
        makeDecoder: @Sendable () -> (JSONValue, String) throws(JSONFieldError) -> Item
    ) throws(DataLoadError) -> [Item] {
        let bytes = data.bytes, file = data.name
        var ids = UniqueIDs()
        if bytes.count >= parallelFrom, let items = decodeInParallel(bytes, release: data.release, makeDecoder: makeDecoder) {
            do {
                for (index, item) in items.enumerated() { try ids.claim(id(item), at: "[\(index)]", item: "item") }
            } catch {
                throw DataLoadError(file: file, reason: error.description)
            }
            return items
        }
        var items: [Item] = []
        let element = makeDecoder()
        do {
            try JSONParser.forEachElement(ofArrayIn: bytes) { value in
                let path = "[\(items.count)]"
                let item = try element(value, path)
                try ids.claim(id(item), at: path, item: "item")
                items.append(item)
            }
        } catch let error as JSONParser.Failure {
            throw DataLoadError(file: file, reason: error.description)
        } catch let error as JSONFieldError {
            throw DataLoadError(file: file, reason: error.description)
        } catch {
            throw DataLoadError(file: file, reason: "\(error)")
        }
        return items
    }

    /// Splits the array at guessed element starts, `partCount` parts (one per core by default),
    /// and decodes the parts at once. Each part must end exactly where the next begins (so each guess is proven by the
    /// part before it, back to the array's real start) and the last at the document's end;
    /// otherwise, or on any error, nil: the caller decodes in one pass, whose errors name the
    /// exact element. Parts keep items in chunks of `chunkSize` (64k orders are about 10 MB)
    /// and `release` the bytes they have parsed every `releaseEvery` bytes.
    static func decodeInParallel<Item: Sendable>(
        _ bytes: UnsafeRawBufferPointer, release: @Sendable (Range<Int>) -> Void = { _ in }, chunkSize: Int = 65_536,
        releaseEvery: Int = 16 << 20, partCount: Int = ProcessInfo.processInfo.activeProcessorCount,
        makeDecoder: @Sendable () -> (JSONValue, String) throws(JSONFieldError) -> Item
    ) -> [Item]? {
        guard partCount > 1, let first = JSONParser.firstElementStart(in: bytes) else { return nil }
        // A guess is taken when it starts an object with the first element's member names
        // (a seam between two items nested in an order, or text in a string, mostly has not).
        let names = memberNames(at: first, in: bytes)
        guard names != nil else { return nil }
        var starts = [first]
        guesses: for part in 1..<partCount {
            guard let previous = starts.last else { break }
            var offset = max(previous + 1, bytes.count / partCount * part)
            for _ in 0..<1000 {
                guard let guess = JSONParser.likelyElementStart(in: bytes, after: offset) else { break guesses }
                if memberNames(at: guess, in: bytes) == names {
                    starts.append(guess)
                    continue guesses
                }
                offset = guess + 1
            }
            break
        }
        guard starts.count > 1 else { return nil }
        let file = ReadOnlyBytes(bytes: bytes), boundaries = starts
        // Each part collects its items in chunks, so that joining them holds one chunk twice,
        // not a whole part, and hands back the file's pages behind it as it goes.
        let decoded = Locked<[Int: [[Item]]]>([:])
        DispatchQueue.concurrentPerform(iterations: starts.count) { part in
            let element = makeDecoder()
            let isLast = part == boundaries.count - 1
            var chunks: [[Item]] = [[]]
            var parsedUpTo = boundaries[part]
            let end = try? JSONParser.elementRun(
                in: file.bytes, from: boundaries[part], boundary: isLast ? file.bytes.count : boundaries[part + 1]
            ) { value, endOffset in
                if chunks[chunks.count - 1].count == chunkSize { chunks.append([]) }
                chunks[chunks.count - 1].append(try element(value, "[]"))
                if endOffset - parsedUpTo >= releaseEvery {
                    release(parsedUpTo..<endOffset)
                    parsedUpTo = endOffset
                }
            }
            guard end == (isLast ? .endOfDocument : .reachedBoundary) else { return }
            decoded.withLock { $0[part] = chunks }
        }
        var parts = decoded.withLock { parts in
            defer { parts = [:] }
            return parts
        }
        guard parts.count == starts.count else { return nil }
        var items: [Item] = []
        items.reserveCapacity(parts.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } })
        for part in parts.keys.sorted() {
            var chunks = parts.removeValue(forKey: part) ?? []
            for index in chunks.indices {
                items += chunks[index]
                chunks[index] = []  // each chunk freed once copied
            }
        }
        return items
    }

    private static func memberNames(at offset: Int, in bytes: UnsafeRawBufferPointer) -> Set<String>? {
        guard case .object(let object)? = try? JSONParser.value(in: bytes, at: offset) else { return nil }
        return Set(object.keys)
    }
}

/// A file's bytes shared by the threads decoding its parts. Sound because they only read, and
/// `concurrentPerform` returns only after every thread is done, while the bytes are alive.
private struct ReadOnlyBytes: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
}
