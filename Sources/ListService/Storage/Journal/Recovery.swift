import Basics
import Foundation
import Glibc

/// Where the service keeps its data and what it does at start-up: load each collection's
/// snapshot, replay its journal, and make sure a snapshot exists for the next start.
package struct StorageConfiguration: Sendable {
    /// Where the initial data files are (`--data`); nil: the embedded data.
    package var dataDirectory: String?
    /// Where snapshots and journals live; nil keeps changes in memory only (`--in-memory`).
    package var stateDirectory: String?
    /// A journal this large is compacted into its collection's snapshot.
    package var compactAfterBytes: Int
    package static let defaultCompactAfterBytes = 64 * 1024 * 1024
    /// The embedded data's anchor (see `CollectionService.defaultAnchor`).
    package var anchor: Date

    package init(
        dataDirectory: String?, stateDirectory: String?, anchor: Date, compactAfterBytes: Int = defaultCompactAfterBytes
    ) {
        self.dataDirectory = dataDirectory
        self.stateDirectory = stateDirectory
        self.anchor = anchor
        self.compactAfterBytes = compactAfterBytes
    }
}

/// Start-up could not produce a trustworthy state; one line says why.
package struct StartupError: Error, CustomStringConvertible, Sendable {
    package let description: String

    package init(description: String) { self.description = description }
}

/// One collection's state as recovered at start-up.
struct RecoveredCollection<C: ListCollection> {
    let state: CollectionState<C>
    let journalPath: String?
    let journalLength: Int
    /// The highest sequence number the collection ever gave out, as far as storage recorded
    /// it: the sequence file, and every id in the journal (deleted items included).
    let highestSequence: Int
    /// Whether the state directory has no binary snapshot yet (the items came from JSON).
    let needsSnapshot: Bool
    /// The keyed writes' answers the collection's files keep (the answers file, then the journal).
    var answers: [RecordedAnswer] = []
    let report: String

    /// The file beside the snapshot that keeps the sequence's high-water mark across compactions.
    static var sequenceFileName: String { "\(C.name).sequence" }

    /// The file beside the snapshot that keeps the journal's answers across compactions.
    static var answersFileName: String { "\(C.name).answers" }

    /// Where the items came from.
    private enum Origin {
        /// The binary snapshot in the state directory.
        case snapshot
        /// A JSON data file (`--data`, or one an earlier build kept as the state's snapshot):
        /// the binary snapshot is written in the background once the service runs.
        case dataFile
        case embedded
    }

    /// Loads the snapshot (state directory, else data directory, else embedded data), replays
    /// the journal, drops a torn tail, refuses corruption before the end, and writes the
    /// first snapshot of embedded data (data files' first snapshot is written in the background:
    /// `needsSnapshot`).
    static func recover(_ storage: StorageConfiguration, log: ServiceLog) throws(StartupError) -> RecoveredCollection {
        let fileManager = FileManager.default
        let snapshotPath = storage.stateDirectory.map { ($0 as NSString).appendingPathComponent(SnapshotFile.fileName(C.self)) }
        var items: [C.Item]
        let source: String
        let origin: Origin
        if let snapshotPath, fileManager.fileExists(atPath: snapshotPath) {
            items = try SnapshotFile.load(snapshotPath, as: C.self)
            (source, origin) = (snapshotPath, .snapshot)
        } else {
            let stateFile = storage.stateDirectory.map { ($0 as NSString).appendingPathComponent(C.fileName) }
            let dataFile = storage.dataDirectory.map { ($0 as NSString).appendingPathComponent(C.fileName) }
            let file: String? =
                if let stateFile, fileManager.fileExists(atPath: stateFile) {
                    stateFile  // the state as an earlier build kept it, in JSON
                } else if let dataFile, !C.isDataFileOptional || fileManager.fileExists(atPath: dataFile) {
                    dataFile
                } else {
                    nil
                }
            if let file {
                do throws(DataLoadError) {
                    items = try CollectionLoading.loadItems(C.self, from: URL(fileURLWithPath: file).deletingLastPathComponent())
                    // The parse's freed heap goes back before the indexes are built beside the
                    // items, not after: kept, it was part of the first load's peak.
                    FreedMemory.returnToSystem()
                } catch {
                    throw StartupError(description: error.description)
                }
                (source, origin) = (file, .dataFile)
            } else {
                items = C.makeDefaultItems(anchor: storage.anchor)
                (source, origin) = ("embedded", .embedded)
            }
        }
        guard let stateDirectory = storage.stateDirectory, let snapshotPath else {
            return RecoveredCollection(
                state: CollectionState(items: items), journalPath: nil, journalLength: 0, highestSequence: 0, needsSnapshot: false,
                report: "\(C.name)=\(items.count) source=\(LogFmt.value(source))")
        }
        let journalPath = (stateDirectory as NSString).appendingPathComponent("\(C.name).journal")
        let contents: JournalContents
        do {
            let joined = try Journal.joinRotated(at: journalPath)
            if joined > 0 { log.line("level=info event=journal-joined file=\(LogFmt.value(journalPath)) bytes=\(joined)") }
            contents = try JournalReader.read(journalPath)
        } catch {
            throw StartupError(description: error.description)
        }
        if contents.droppedTail > 0 {
            log.line(
                "level=warning event=journal-tail-dropped file=\(LogFmt.value(journalPath)) bytes=\(contents.droppedTail) reason=\"torn or corrupt last record\""
            )
            guard truncate(journalPath, off_t(contents.validLength)) == 0 else {
                throw StartupError(description: "\(journalPath): cannot drop the torn tail: \(String(cString: strerror(errno)))")
            }
        }
        var highestSequence = try recordedSequence(in: stateDirectory)
        let answersPath = (stateDirectory as NSString).appendingPathComponent(answersFileName)
        var answers = try recordedAnswers(at: answersPath)
        items = try replay(contents.payloads, onto: items, path: journalPath, highestSequence: &highestSequence, answers: &answers)
        let markerPath = EmbeddedRefresh.markerPath(C.self, in: stateDirectory)
        var journalLength = contents.validLength
        var report = "\(C.name)=\(items.count) source=\(LogFmt.value(source)) replayed=\(contents.payloads.count)"
        if origin == .embedded {
            do {
                try SnapshotFile.replace(snapshotPath, with: items, as: C.self)
                try EmbeddedRefresh.write(.init(current: storage.anchor), to: markerPath)
            } catch {
                throw StartupError(description: "cannot write the first snapshot: \(error)")
            }
        } else if origin == .snapshot, let anchors = EmbeddedRefresh.read(markerPath), anchors.current != storage.anchor,
            let refreshed = EmbeddedRefresh.refresh(C.self, items, madeAt: anchors, to: storage.anchor)
        {
            // The refreshed items become the snapshot, with the journal's changes in them (the
            // sequence and answers first, as a compaction does); the anchors go first so that a
            // stop half way still recognises items made at either.
            do {
                try EmbeddedRefresh.write(.init(current: storage.anchor, previous: anchors.current), to: markerPath)
                try DurableFile.replace(
                    (stateDirectory as NSString).appendingPathComponent(sequenceFileName), with: Array("\(highestSequence)\n".utf8))
                try DurableFile.replace(answersPath, with: answers.map { Journal.frame($0.record) })
                try SnapshotFile.replace(snapshotPath, with: refreshed, as: C.self)
                guard truncate(journalPath, 0) == 0 || errno == ENOENT else {
                    throw StartupError(description: "\(journalPath): cannot be emptied: \(String(cString: strerror(errno)))")
                }
            } catch {
                throw StartupError(description: "cannot refresh the embedded data: \(error)")
            }
            items = refreshed
            journalLength = 0
            report += " refreshed_to=\(ISO8601.format(storage.anchor))"
        }
        return RecoveredCollection(
            state: CollectionState(items: items), journalPath: journalPath, journalLength: journalLength,
            highestSequence: highestSequence, needsSnapshot: origin == .dataFile, answers: answers, report: report)
    }

    /// Applies journal records (full-item upserts and deletes) in order, and collects the
    /// answers. Replaying a record a snapshot already holds changes nothing.
    private static func replay(
        _ payloads: [[UInt8]], onto base: [C.Item], path: String, highestSequence: inout Int, answers: inout [RecordedAnswer]
    ) throws(StartupError) -> [C.Item] {
        guard !payloads.isEmpty else { return base }
        var replay = ItemReplay<C>(base)
        /// Applies one change (or a batch's changes, all of them: it was written whole).
        func apply(_ record: JSONFields) throws(JSONFieldError) {
            switch try record.string("op") {
            case "upsert": replay.upsert(try C.decodeItem(try record.value("item"), path: record.fieldPath("item")))
            case "delete": replay.delete(id: try record.string("id"))
            case "answer": answers.append(try RecordedAnswer(JSONFields(record.value("answer"), path: record.fieldPath("answer"))))
            case "batch":
                for (index, change) in try record.array("changes").enumerated() {
                    try apply(try JSONFields(change, path: record.fieldPath("changes[\(index)]")))
                }
            case let other:
                throw JSONFieldError(path: record.fieldPath("op"), reason: "unknown operation '\(other)'")
            }
        }
        for (number, payload) in payloads.enumerated() {
            do {
                try apply(try JSONFields(try JSONParser.parse(payload), path: "record \(number + 1)"))
            } catch {
                throw StartupError(description: "\(path): record \(number + 1) has a valid checksum but cannot be applied: \(error)")
            }
        }
        highestSequence = max(highestSequence, replay.highestSequence)
        return replay.result
    }

    /// The answers a compaction saved (none when there is no file yet).
    private static func recordedAnswers(at path: String) throws(StartupError) -> [RecordedAnswer] {
        do {
            return try JournalReader.read(path).payloads.enumerated().map { number, payload throws(JSONFieldError) in
                try RecordedAnswer(record: payload, path: "answer \(number + 1)")
            }
        } catch let error as JournalCorruption {
            throw StartupError(description: error.description)
        } catch {
            throw StartupError(description: "\(path): \(error)")
        }
    }

    /// The high-water mark in the sequence file (0 when there is none yet).
    private static func recordedSequence(in directory: String) throws(StartupError) -> Int {
        let path = (directory as NSString).appendingPathComponent(sequenceFileName)
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        guard let value = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), value >= 0 else {
            throw StartupError(description: "\(path): not a sequence number; refusing to start rather than give out used ids again")
        }
        return value
    }
}
