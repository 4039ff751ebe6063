import Basics
import Foundation
import Testing

@testable import ListService

/// A large data file is decoded in parts at once, from guessed element starts; whatever the
/// guesses, the result and every error are those of one pass from the start.
@Suite struct ParallelDecodingTests {
    private let orders = DefaultOrders.make(count: 2000, anchor: ISO8601.parse("2026-11-20T00:00:00Z")!)

    private func decode(_ text: [UInt8], parallelFrom: Int) -> Result<[Order], DataLoadError> {
        text.withUnsafeBytes { bytes in
            Result { () throws(DataLoadError) in
                try JSONArrayDecoding.decode(DataFileBytes(bytes: bytes, name: "orders.json"), id: \.id, parallelFrom: parallelFrom) {
                    { (value, path) throws(JSONFieldError) in try Order(json: value, path: path) }
                }
            }
        }
    }

    @Test func parts_equalOnePass() throws {
        let file = Orders.encodeDataFile(orders)
        #expect(try decode(file, parallelFrom: 0).get() == orders)
        #expect(try decode(file, parallelFrom: .max).get() == orders)
        // Four parts whatever the cores: on one core they are decoded one after another.
        let parts = file.withUnsafeBytes { bytes in
            JSONArrayDecoding.decodeInParallel(bytes, partCount: 4) {
                { (value, path) throws(JSONFieldError) in try Order(json: value, path: path) }
            }
        }
        #expect(parts == orders, "the guesses hold on a plain file")
    }

    /// Parts collect items in chunks and hand back the bytes they parsed as they go: small
    /// chunks and frequent releases give the same orders, and the released ranges never
    /// overlap and lie inside the file, before each part's end.
    @Test func chunksAndReleases_equalOnePass() throws {
        let file = Orders.encodeDataFile(orders)
        let released = Locked<[Range<Int>]>([])
        let parts = file.withUnsafeBytes { bytes in
            JSONArrayDecoding.decodeInParallel(
                bytes, release: { range in released.withLock { $0.append(range) } }, chunkSize: 7, releaseEvery: 4096, partCount: 4
            ) {
                { (value, path) throws(JSONFieldError) in try Order(json: value, path: path) }
            }
        }
        #expect(parts == orders)
        let ranges = released.withLock { $0 }.sorted { $0.lowerBound < $1.lowerBound }
        #expect(ranges.count > 10)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound })
        #expect(ranges.allSatisfy { $0.count >= 4096 && $0.upperBound <= file.count })
    }

    /// Text that looks like the seam between two elements, all over the file: a guess inside a
    /// string must be caught, never produce other orders.
    @Test func aGuessInsideAString_fallsBackToOnePass() throws {
        var tricky = orders
        for index in tricky.indices where index % 7 == 0 { tricky[index].title = index % 2 == 0 ? #"a"},{"id":"x"# : "b}, {c" }
        let file = Orders.encodeDataFile(tricky)
        #expect(String(decoding: file, as: UTF8.self).contains(#"a\"},{\"id"#))
        #expect(try decode(file, parallelFrom: 0).get() == tricky)
        let spaced = String(decoding: file, as: UTF8.self).replacingOccurrences(of: #"},{"id":"o-"#, with: "}  ,\n  {\"id\":\"o-")
        #expect(try decode(Array(spaced.utf8), parallelFrom: 0).get() == tricky)
    }

    @Test func errors_nameTheExactElement_wherever_theyAre() {
        var text = String(decoding: Orders.encodeDataFile(orders), as: UTF8.self)
        text = text.replacingOccurrences(of: #""id":"o-001900""#, with: #""id":"o-000007""#)
        #expect(decode(Array(text.utf8), parallelFrom: 0).failureDescription?.contains("[1899]") == true)
        var broken = String(decoding: Orders.encodeDataFile(orders), as: UTF8.self)
        broken = broken.replacingOccurrences(of: #""id":"o-001500","title""#, with: #""id":"o-001500","titel""#)
        #expect(decode(Array(broken.utf8), parallelFrom: 0).failureDescription == "orders.json: [1499].title: is missing")
        #expect(decode(Array("[1, 2]".utf8), parallelFrom: 0).failureDescription?.contains("[0]") == true)
        #expect(decode(Array("[]".utf8), parallelFrom: 0).map(\.count).failureDescription == nil)
        let trailing = Orders.encodeDataFile(orders) + Array(" x".utf8)
        #expect(decode(trailing, parallelFrom: 0).failureDescription?.contains("unexpected data after the document") == true)
    }
}
