import Foundation
import Glibc
import Testing

/// Live lists over a real socket, against the real server process.
@Suite struct LiveStreamProcessTests {
    /// Sends `request` and reads until `marker` has arrived (or 5 s pass); everything read so far.
    static func read(_ fd: Int32, until marker: String, after sent: String? = nil, soFar: String = "") -> String {
        if let sent {
            let bytes = Array(sent.utf8)
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        var text = soFar
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(5)
        while !text.contains(marker), Date() < deadline {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            text += String(decoding: chunk[..<count], as: UTF8.self)
        }
        return text
    }

    /// A new person sorted after a window of the first three: the total, the rows after the
    /// window and the count change, no row does.
    static let lastPersonDelta =
        #""total":301,"formattedTotal":"301","index":0,"itemsBefore":0,"itemsAfter":298,"#
        + #""counts":{"all":301},"formattedCounts":{"all":"301"},"ops":[]"#

    static func get(_ path: String, headers: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\(headers)\r\n"
    }

    /// One whole request on a fresh connection; the response's text.
    static func call(_ method: String, _ path: String, port: Int, body: String = "") -> String {
        guard let fd = connectSocket(port: port) else { return "" }
        defer { close(fd) }
        let request =
            "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        return read(fd, until: "\u{0}never", after: request)
    }

    /// The `id:` of the last event in `text`.
    static func lastEventID(_ text: String) -> String? {
        text.components(separatedBy: "\n").last { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
    }

    @Test func snapshotDeltasHeartbeatResumeAndShutdown_overASocket() throws {
        let (process, port, errors, _) = try startServer(["--no-access-log", "--in-memory", "--live-heartbeat", "1"])
        defer { if process.isRunning { process.terminate() } }
        let fd = try #require(connectSocket(port: port), "could not connect to the server")
        defer { close(fd) }
        var text = Self.read(fd, until: "event: snapshot", after: Self.get("/users/live?sort=name&limit=3"))
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.contains("Content-Type: text/event-stream\r\n") && text.contains("Cache-Control: no-store\r\n"))
        #expect(text.contains("X-Accel-Buffering: no\r\n") && text.contains("Transfer-Encoding: chunked\r\n"))
        #expect(text.range(of: #"retry: \d+\n\n"#, options: .regularExpression) != nil)
        text = Self.read(fd, until: "\n\n", soFar: text)
        let firstID = try #require(
            text.range(of: #""id":"(u-\d+)""#, options: .regularExpression).map { String(text[$0].dropFirst(6).dropLast(1)) })

        // A tap on a row of the window: one update; a new person sorted last: the total, the
        // rows after the window and the count only.
        #expect(Self.call("POST", "/users/\(firstID)/tap", port: port).hasPrefix("HTTP/1.1 200"))
        text = Self.read(fd, until: #""op":"update","id":"\#(firstID)""#, soFar: text)
        #expect(text.contains(#""op":"update","id":"\#(firstID)""#))
        let resumeFrom = try #require(Self.lastEventID(text))
        #expect(Self.call("POST", "/users", port: port, body: #"{"name":"Zzyzx Last"}"#).hasPrefix("HTTP/1.1 201"))
        text = Self.read(fd, until: Self.lastPersonDelta, soFar: text)
        #expect(text.contains(Self.lastPersonDelta))

        // Quiet for over a second: a comment keeps the stream honest.
        let quiet = Self.read(fd, until: ":\n\n")
        #expect(quiet.contains(":\n\n"))
        text += quiet

        // A reconnect with Last-Event-ID gets exactly the event it missed; a foreign token a reset.
        let again = try #require(connectSocket(port: port), "could not connect to the server")
        let other = try #require(connectSocket(port: port), "could not connect to the server")
        defer {
            close(again)
            close(other)
        }
        let replayed = Self.read(
            again, until: "event: delta", after: Self.get("/users/live?sort=name&limit=3", headers: "Last-Event-ID: \(resumeFrom)\r\n"))
        #expect(
            replayed.contains(Self.lastPersonDelta)
                && !replayed.contains("event: snapshot"))
        let reset = Self.read(other, until: "event: reset", after: Self.get("/users/live?sort=name&limit=3&lastEventId=old-5"))
        #expect(reset.contains(#""reason":"restart""#))

        // A bad parameter is the list's 400, before any stream.
        let refused = Self.call("GET", "/orders/live?limit=0", port: port)
        #expect(refused.hasPrefix("HTTP/1.1 400") && refused.contains(#""parameter":"limit""#))

        // SIGTERM: each stream gets a retry and ends; the process exits cleanly.
        kill(process.processIdentifier, SIGTERM)
        text = Self.read(fd, until: "0\r\n\r\n", soFar: text)
        #expect(text.hasSuffix("0\r\n\r\n"), "the chunked body ends")
        #expect(text.range(of: #"retry: \d+\n\n\r\n0\r\n\r\n$"#, options: .regularExpression) != nil, "a jittered retry comes last")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        _ = errors
    }
}
