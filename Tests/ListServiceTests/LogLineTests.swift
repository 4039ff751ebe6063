import Basics
import Foundation
import Testing

@testable import ListService

/// The service's log lines are logfmt: every line splits into `key=value` pairs, whatever its
/// values hold.
@Suite struct LogLineTests {
    @Test(arguments: [
        ("orders", "orders"),
        ("/var/lib/listservice/orders.journal", "/var/lib/listservice/orders.journal"),
        ("", #""""#),
        ("/tmp/my state/orders.journal", #""/tmp/my state/orders.journal""#),
        ("disk \"full\"", #""disk \"full\"""#),
        ("a=b", #""a=b""#),
        ("line\nlevel=error event=forged", #""line\nlevel=error event=forged""#),
        (#"C:\state"#, #""C:\\state""#),
    ])
    func aValue_isOnePlainToken_orQuoted(text: String, written: String) {
        #expect(LogFmt.value(text) == written)
        #expect(Self.pairs(of: "key=\(written) next=1") == ["key": text, "next": "1"])
    }

    @Test func loadingFromFoldersWithSpaces_logsLinesThatSplitIntoTheirPairs() throws {
        let anchor = ISO8601.parse("2026-11-20T00:00:00Z")!
        try withTemporaryDirectory { root in
            let data = root + "/data files", state = root + "/my state"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            try writeDataFiles(orders: DefaultOrders.make(count: 20, anchor: anchor), to: data)
            let lines = Locked<[String]>([])
            let service = try CollectionService.open(
                StorageConfiguration(dataDirectory: data, stateDirectory: state, anchor: anchor),
                log: ServiceLog { line in lines.withLock { $0.append(line) } })
            service.writes.finishBackgroundWork()
            let logged = lines.withLock { $0 }.map(Self.pairs)
            #expect(logged.allSatisfy { $0 != nil }, "\(lines.withLock { $0 })")
            let orders = logged.compactMap { $0 }.first { $0["event"] == "loaded" && $0["orders"] != nil }
            #expect(orders?["orders"] == "20")
            #expect(orders?["source"] == data + "/orders.json")
            #expect(orders?["replayed"] == "0")
            let compacted = logged.compactMap { $0 }.filter { $0["event"] == "compacted" }.compactMap { $0["file"] }
            #expect(compacted.contains(state + "/orders.snapshot"))
        }
    }

    /// A logfmt line's pairs (values bare or JSON-quoted), or nil where the line does not split into them.
    static func pairs(of line: String) -> [String: String]? {
        var pairs: [String: String] = [:]
        var rest = Substring(line)
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "="), !rest[..<equals].contains(" ") else { return nil }
            let key = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            if rest.first == "\"" {
                var end = rest.index(after: rest.startIndex)
                while end < rest.endIndex, rest[end] != "\"" {
                    if rest[end] == "\\" { end = rest.index(after: end) }
                    guard end < rest.endIndex else { return nil }
                    end = rest.index(after: end)
                }
                guard end < rest.endIndex,
                    let value = try? JSONDecoder().decode(String.self, from: Data(rest[...end].utf8))
                else { return nil }
                pairs[key] = value
                rest = rest[rest.index(after: end)...]
            } else {
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                pairs[key] = String(rest[..<end])
                rest = rest[end...]
            }
            guard rest.isEmpty || rest.first == " " else { return nil }
            rest = rest.drop { $0 == " " }
        }
        return pairs
    }
}
