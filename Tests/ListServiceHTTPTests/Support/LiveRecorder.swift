import Foundation
import Synchronization
import Basics

@testable import ListService

/// A live stream's far end in tests: records what is sent and can play a slow reader.
final class LiveRecorder: LiveSubscriber {
    private let received = Locked<[UInt8]>([])
    private let open = Atomic<Bool>(true)
    /// What the recorder pretends the client has not yet read.
    let backlog = Atomic<Int>(0)
    private let drained = Locked<(@Sendable () -> Void)?>(nil)

    var isOpen: Bool { open.load(ordering: .relaxed) }
    var unsentBytes: Int { backlog.load(ordering: .relaxed) }
    func send(_ bytes: [UInt8]) { received.withLock { $0 += bytes } }
    func finish() { open.store(false, ordering: .relaxed) }
    func whenDrained(_ body: @escaping @Sendable () -> Void) { drained.withLock { $0 = body } }
    func close() { open.store(false, ordering: .relaxed) }

    /// The client catches up: the backlog is gone and a drain waiter runs.
    func catchUp() {
        backlog.store(0, ordering: .relaxed)
        drained.withLock { $0.take() }?()
    }

    var text: String { String(decoding: received.withLock { $0 }, as: UTF8.self) }

    /// Every event so far: its name, id and JSON data (comments and `retry:` left out).
    var events: [(name: String, id: String, data: [String: Any])] {
        text.components(separatedBy: "\n\n").compactMap { block in
            var name = "message", id = "", data = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            guard !data.isEmpty else { return nil }
            return (name, id, json(Array(data.utf8)))
        }
    }
}

/// A client's copy of a live window, kept by applying events as a front end would.
struct LiveWindowReplica {
    var items: [[String: Any]] = []
    var total = 0
    var formattedTotal = ""
    var v = 0
    /// The list's counts and where its window sits, as its events left them.
    var counts: [String: Int] = [:]
    var formattedCounts: [String: String] = [:]
    var position: [String: Int] = [:]
    /// A grouped list's sections as its events left them (a section whose `firstIndex` only
    /// shifted is not resent: compare `derivedSections`).
    var sections: [[String: Any]] = []
    var problems: [String] = []

    static let positionFields = ["index", "itemsBefore", "itemsAfter"]

    mutating func apply(_ event: (name: String, id: String, data: [String: Any])) {
        let data = event.data
        switch event.name {
        case "snapshot", "reset":
            items = data["items"] as? [[String: Any]] ?? []
            total = data["total"] as? Int ?? -1
            formattedTotal = data["formattedTotal"] as? String ?? ""
            v = data["v"] as? Int ?? -1
            counts = data["counts"] as? [String: Int] ?? [:]
            formattedCounts = data["formattedCounts"] as? [String: String] ?? [:]
            position = data.filter { Self.positionFields.contains($0.key) }.compactMapValues { $0 as? Int }
            sections = data["sections"] as? [[String: Any]] ?? []
        case "delta":
            if data["base"] as? Int != v { problems.append("delta base \(data["base"] ?? "nil") after v \(v)") }
            v = data["v"] as? Int ?? -1
            if let newTotal = data["total"] as? Int { total = newTotal }
            if let newText = data["formattedTotal"] as? String { formattedTotal = newText }
            counts.merge(data["counts"] as? [String: Int] ?? [:]) { $1 }
            formattedCounts.merge(data["formattedCounts"] as? [String: String] ?? [:]) { $1 }
            position.merge(data.filter { Self.positionFields.contains($0.key) }.compactMapValues { $0 as? Int }) { $1 }
            applySections(data)
            for op in data["ops"] as? [[String: Any]] ?? [] {
                let id = op["id"] as? String
                let position = id.flatMap { id in items.firstIndex { $0["id"] as? String == id } }
                switch op["op"] as? String {
                case "remove":
                    guard let position else { problems.append("remove of absent \(id ?? "?")"); continue }
                    items.remove(at: position)
                case "insert":
                    guard let index = op["index"] as? Int, index <= items.count, let row = op["row"] as? [String: Any] else {
                        problems.append("bad insert \(op)")
                        continue
                    }
                    items.insert(row, at: index)
                case "move":
                    guard let position, let to = op["to"] as? Int else { problems.append("bad move \(op)"); continue }
                    let row = items.remove(at: position)
                    guard to <= items.count else { problems.append("move past the end \(op)"); continue }
                    items.insert(row, at: to)
                case "update":
                    guard let position, let row = op["row"] as? [String: Any] else { problems.append("bad update \(op)"); continue }
                    items[position] = row
                default: problems.append("unknown op \(op)")
                }
            }
        default: problems.append("unknown event \(event.name)")
        }
    }

    /// A delta's `removedSections`, then its `sections`: a known key replaced, a new one
    /// placed after the key its `after` names (first for null).
    private mutating func applySections(_ data: [String: Any]) {
        let removed = Set(data["removedSections"] as? [String] ?? [])
        sections.removeAll { removed.contains($0["key"] as? String ?? "") }
        for var section in data["sections"] as? [[String: Any]] ?? [] {
            let key = section["key"] as? String
            if let known = sections.firstIndex(where: { $0["key"] as? String == key }) {
                if section["after"] != nil { problems.append("after on a known section \(key ?? "?")") }
                sections[known] = section
                continue
            }
            guard let after = section.removeValue(forKey: "after") else {
                problems.append("a new section \(key ?? "?") without after")
                continue
            }
            if let afterKey = after as? String {
                guard let index = sections.firstIndex(where: { $0["key"] as? String == afterKey }) else {
                    problems.append("section \(key ?? "?") after unknown \(afterKey)")
                    continue
                }
                sections.insert(section, at: index + 1)
            } else {
                sections.insert(section, at: 0)
            }
        }
    }

    /// The sections with what a client keeps of each (not the cursor), `firstIndex` derived
    /// from the counts before it.
    static func derived(_ sections: [[String: Any]]) -> [[String: String]] {
        var firstIndex = 0
        return sections.map { section in
            defer { firstIndex += section["count"] as? Int ?? 0 }
            var kept = section.filter { $0.key != "cursor" && $0.key != "firstIndex" }.mapValues { "\($0)" }
            kept["firstIndex"] = String(firstIndex)
            return kept
        }
    }
}
