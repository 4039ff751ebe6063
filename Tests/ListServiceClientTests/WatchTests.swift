import Foundation
import Testing

/// `listservice-watch --json` run as a process against a running server.
@Suite struct WatchTests {
    /// The binary SwiftPM built beside the server.
    var watchBinary: URL { serverBinary.deletingLastPathComponent().appendingPathComponent("listservice-watch") }

    @Test func printsTheSnapshotThenOneLinePerChange() throws {
        let service = try RunningService()
        let watcher = Process()
        watcher.executableURL = watchBinary
        watcher.arguments = [
            "users", "--sort", "name", "--limit", "5", "--json", "--url", "http://127.0.0.1:\(service.port)", "--locale", "en-US",
        ]
        let output = Pipe()
        watcher.standardOutput = output
        watcher.standardError = Pipe()
        try watcher.run()
        defer { if watcher.isRunning { watcher.terminate() } }
        // A watcher that never prints must not hang the suite: its output ends after 30 s.
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { if watcher.isRunning { watcher.terminate() } }
        var lines = LineReader(output.fileHandleForReading)

        let snapshot = lines.next() ?? [:]
        #expect(snapshot["event"] as? String == "snapshot")
        let rows = try #require(snapshot["rows"] as? [[String: Any]])
        #expect(rows.count == 5 && snapshot["total"] as? Int == 300 && snapshot["formattedTotal"] as? String == "300")
        let second = try #require(rows[1]["id"] as? String)
        let taps = try #require(rows[1]["taps"] as? Int)

        #expect(httpRequest(port: service.port, "POST", "/users/\(second)/tap").status == 200)
        let change = lines.next() ?? [:]
        #expect(change["event"] as? String == "delta" && change["formattedTotal"] as? String == "300")
        let updated = try #require(change["updated"] as? [[String: Any]])
        #expect(updated.count == 1 && updated[0]["id"] as? String == second && updated[0]["taps"] as? Int == taps + 1)
        #expect(change["inserted"] == nil && change["removed"] == nil && change["moved"] == nil)
    }

    /// Reads JSON lines from a pipe, waiting for each.
    struct LineReader {
        let handle: FileHandle
        var buffer = Data()

        init(_ handle: FileHandle) { self.handle = handle }

        mutating func next() -> [String: Any]? {
            while true {
                if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffer[buffer.startIndex..<end]
                    buffer = Data(buffer[(end + 1)...])
                    return (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
                }
                let chunk = handle.availableData
                if chunk.isEmpty { return nil }
                buffer += chunk
            }
        }
    }
}
