import Foundation
import Glibc
import Testing

/// Exports over a real socket from the real server: a file's head and framing, writes that do
/// not wait for a client reading slowly (and do not show in its file), and a shutdown that
/// lets a file under way finish.
@Suite struct ExportProcessTests {
    /// Sends `request` on `fd` and reads `count` bytes (fewer if the peer closes first).
    static func read(_ fd: Int32, bytes count: Int, soFar: [UInt8] = []) -> [UInt8] {
        var received = soFar
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.count < count {
            let read = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, count - received.count), 0) }
            guard read > 0 else { break }
            received += chunk[..<read]
        }
        return received
    }

    static func readToEnd(_ fd: Int32, soFar: [UInt8]) -> [UInt8] { read(fd, bytes: .max, soFar: soFar) }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    @Test func aFileStreamsWithItsHead_andItsRowsAreTheListsTotal() throws {
        let (process, port, _, _) = try startServer(["--no-access-log", "--in-memory"])
        defer { if process.isRunning { process.terminate() } }
        let total = try #require(httpRequest(port: port, "GET", "/orders?filter=pending&limit=1").json["total"] as? Int)

        let reply = httpRequest(port: port, "GET", "/orders/export?filter=pending&locale=de-DE")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "text/csv; charset=utf-8; header=present")
        let disposition = try #require(reply.headers["content-disposition"])
        #expect(disposition.range(of: #"^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$"#, options: .regularExpression) != nil)
        #expect(reply.headers["transfer-encoding"] == "chunked" && reply.headers["cache-control"] == "no-store")
        #expect(Array(reply.body.prefix(3)) == [0xEF, 0xBB, 0xBF])
        let lines = String(decoding: reply.body.dropFirst(3), as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.first?.hasPrefix("ID;Titel;Kunde;Status;Summe;Datum;") == true)
        #expect(lines.count == total + 2)  // the header, the rows, and the empty text after the last CRLF
        #expect(lines.last == "")

        let ndjson = httpRequest(port: port, "GET", "/orders/export?filter=pending", headers: ["Accept": "application/x-ndjson"])
        #expect(ndjson.headers["content-type"] == "application/x-ndjson")
        #expect(ndjson.headers["content-disposition"]?.hasSuffix(".ndjson\"") == true)
        #expect(String(decoding: ndjson.body, as: UTF8.self).split(separator: "\n").count == total)

        let head = httpRequest(port: port, "HEAD", "/orders/export")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-type"]?.hasPrefix("text/csv") == true)
        let bad = httpRequest(port: port, "GET", "/orders/export?format=pdf")
        #expect(bad.status == 400 && bad.json["parameter"] as? String == "format")
        let paged = httpRequest(port: port, "GET", "/orders/export?limit=10")
        #expect(paged.status == 400 && paged.json["parameter"] as? String == "limit")
    }

    @Test func writesDoNotWaitForASlowReader_andItsFileHoldsTheItemsOfItsStart() throws {
        let (process, port, _, _) = try startServer(["--no-access-log", "--in-memory"])
        defer { if process.isRunning { process.terminate() } }
        let path = "/orders/export?format=ndjson&sort=total"
        let before = httpRequest(port: port, "GET", path).body
        let pending = try #require(httpRequest(port: port, "GET", "/orders?filter=pending&limit=40").json["items"] as? [[String: Any]])
            .compactMap { $0["id"] as? String }
        #expect(pending.count == 40)

        let fd = try #require(connectSocket(port: port, receiveBuffer: 4096, timeout: 10), "could not connect to the server")
        defer { close(fd) }
        Self.send(fd, "GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        var received = Self.read(fd, bytes: 8192)
        #expect(received.count == 8192)
        // The file is open and unread; writes go on, each answered at once.
        for id in pending {
            let started = Date()
            #expect(httpRequest(port: port, "POST", "/orders/\(id)/complete").status == 200)
            #expect(Date().timeIntervalSince(started) < 2)
        }
        #expect(httpRequest(port: port, "DELETE", "/orders/\(pending[0])").status == 204)
        received = Self.readToEnd(fd, soFar: received)
        #expect(HTTPReply(received).body == before)
        #expect(httpRequest(port: port, "GET", path).body != before)
    }

    @Test func aShutdownLetsAFileUnderWayFinish() throws {
        let (process, port, _, _) = try startServer(["--no-access-log", "--in-memory", "--grace-period", "20"])
        defer { if process.isRunning { process.terminate() } }
        let path = "/orders/export?format=ndjson"
        let whole = httpRequest(port: port, "GET", path).body
        let fd = try #require(connectSocket(port: port, receiveBuffer: 4096, timeout: 10), "could not connect to the server")
        defer { close(fd) }
        Self.send(fd, "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")
        var received = Self.read(fd, bytes: 4096)
        kill(process.processIdentifier, SIGTERM)
        usleep(300_000)
        received = Self.readToEnd(fd, soFar: received)
        let reply = HTTPReply(received)
        #expect(reply.body == whole)
        #expect(String(decoding: received.suffix(5), as: UTF8.self) == "0\r\n\r\n")  // ended, not cut
        process.waitUntilExit()
    }
}
