import Foundation
import Glibc
import Testing

/// Through the real `server` process: every refusal that needs only a request's head comes
/// before a byte of its body is read (and instead of `100 Continue`), and the edges a probe
/// found (a foreign absolute-form target, a malformed Host, repeated credentials, an explicit
/// locale that names none, the warning about any origin writing) are closed.
@Suite struct HeadRefusalProcessTests {
    /// A head announcing 60 MB of JSON; its body is never sent.
    static let announced = "Content-Type: application/json\r\nContent-Length: 60000000\r\n"

    @Test func refusals_comeFromTheHead_beforeAnyBodyByte() throws {
        try withTemporaryDirectory { directory in
            let keys = directory + "/keys"
            try "secret\n".write(toFile: keys, atomically: true, encoding: .utf8)
            let (process, port, _, _) = try startServer([
                "--in-memory", "--no-access-log", "--api-keys", keys, "--cors-origin", "https://app.example",
            ])
            defer { process.terminate() }
            let key = "Authorization: Bearer secret\r\n"
            let cases: [(head: String, status: Int, what: String)] = [
                ("POST /quakes/import HTTP/1.1\r\nHost: localhost\r\n\(Self.announced)", 401, "no key"),
                ("POST /quakes/import HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer wrong\r\n\(Self.announced)", 401, "a wrong key"),
                ("POST /quakes/import HTTP/1.1\r\nHost: evil.example\r\n\(key)\(Self.announced)", 421, "a foreign Host"),
                ("POST http://evil.example/quakes/import HTTP/1.1\r\nHost: localhost\r\n\(key)\(Self.announced)", 421, "a foreign target"),
                (
                    "POST /quakes/import HTTP/1.1\r\nHost: localhost\r\nOrigin: https://evil.example\r\n\(key)\(Self.announced)", 403,
                    "a foreign origin"
                ),
                (
                    "POST /quakes/import HTTP/1.1\r\nHost: localhost\r\n\(key)Content-Type: text/plain\r\nContent-Length: 60000000\r\n",
                    415, "not JSON"
                ),
                ("PUT /quakes/import HTTP/1.1\r\nHost: localhost\r\n\(key)\(Self.announced)", 405, "a method the path does not take"),
                ("POST /nowhere HTTP/1.1\r\nHost: localhost\r\n\(key)\(Self.announced)", 404, "no such path"),
                ("POST /orders HTTP/1.1\r\nHost: localhost\r\n\(key)\(Self.announced)", 413, "past the route's limit"),
            ]
            for (head, status, what) in cases {
                for expect in ["", "Expect: 100-continue\r\n"] {
                    let socket = try #require(connectSocket(port: port))
                    defer { close(socket) }
                    let started = Date()
                    let reply = exchange(socket, head + expect + "\r\n")
                    #expect(reply?.status == status, "\(what) \(expect)")
                    #expect(reply?.headers.contains("Connection: close") == true, "\(what): the body is not read")
                    #expect(Date().timeIntervalSince(started) < 2, "\(what): answered from the head")
                }
            }
            // A small refused body is skipped, and the connection serves the next request.
            let socket = try #require(connectSocket(port: port))
            defer { close(socket) }
            let refused = exchange(
                socket, "POST /orders HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
            #expect(refused?.status == 401 && refused?.headers.contains("Connection: close") == false)
            #expect(exchange(socket, "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")?.status == 200)
            #expect(httpRequest(port: port, "GET", "/orders").status == 200, "the server is well")
        }
    }

    @Test func edges_aProbeFound() throws {
        let (process, port, _, log) = try startServer(["--in-memory", "--no-access-log", "--cors-origin", "*"])
        defer { process.terminate() }
        #expect(log.contains("event=cors-any-origin-writes"), "any origin may write with no keys: said at start-up")
        func status(_ request: String) -> Int? {
            guard let socket = connectSocket(port: port) else { return nil }
            defer { close(socket) }
            return exchange(socket, request)?.status
        }
        #expect(status("GET http://other.example/orders HTTP/1.1\r\nHost: localhost\r\n\r\n") == 421, "the target's authority is checked")
        #expect(status("GET http://localhost:1/health HTTP/1.1\r\nHost: other.example\r\n\r\n") == 200, "and the Host field ignored")
        #expect(status("GET /health HTTP/1.1\r\nHost: localhost:abc\r\n\r\n") == 400)
        #expect(
            status("GET /health HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\nOrigin: https://evil.example\r\n\r\n") == 400)
        #expect(status("GET /health HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n") == 400)
        let nonsense = httpRequest(port: port, "GET", "/orders?locale=zz-@@")
        #expect(nonsense.status == 400 && String(decoding: nonsense.body, as: UTF8.self).contains(#""parameter":"locale""#))
        #expect(httpRequest(port: port, "GET", "/orders?locale=de-DE").status == 200)
        #expect(httpRequest(port: port, "GET", "/orders", headers: ["Accept-Language": "zz-@@"]).status == 200, "a header still falls back")
    }

    /// The per-session cap on live streams holds for clients that name no session: per address.
    @Test func liveStreamCap_holdsPerAddress_forClientsWithoutASession() throws {
        let (process, port, _, _) = try startServer(["--in-memory", "--no-access-log"])
        defer { process.terminate() }
        /// Opens a live stream and reads its status line; the socket stays open.
        func openStream(_ headers: String = "") -> (socket: Int32, status: Int)? {
            guard let socket = connectSocket(port: port) else { return nil }
            let request = Array("GET /users/live?sort=name&limit=3 HTTP/1.1\r\nHost: localhost\r\n\(headers)\r\n".utf8)
            _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var chunk = [UInt8](repeating: 0, count: 256)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            return (socket, count >= 12 ? Int(String(decoding: chunk[9..<12], as: UTF8.self)) ?? 0 : 0)
        }
        var open: [Int32] = []
        defer { open.forEach { close($0) } }
        for _ in 0..<8 {
            let stream = try #require(openStream())
            open.append(stream.socket)
            #expect(stream.status == 200)
        }
        let ninth = try #require(openStream())
        open.append(ninth.socket)
        #expect(ninth.status == 503, "a ninth stream from the same address, naming no session")
        let named = try #require(openStream("X-Session-ID: named\r\n"))
        open.append(named.socket)
        #expect(named.status == 200, "a session has its own cap")
    }
}
