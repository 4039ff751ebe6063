import Foundation
import Glibc
import ListServiceHTTP
import Testing

@testable import server

/// The open-network options through the real `server` process: what it logs, what its access
/// log leaves out, and HEAD on the wire.
@Suite struct OpenNetworkProcessTests {
    /// Sends `request` and reads until the server closes (the request says `Connection: close`).
    func rawExchange(port: Int, _ request: String) -> String {
        guard let socket = connectSocket(port: port) else { return "" }
        defer { close(socket) }
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while case let count = chunk.withUnsafeMutableBytes({ recv(socket, $0.baseAddress, $0.count, 0) }), count > 0 {
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    func contentLength(_ response: String) -> Int? {
        response.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) }
    }

    @Test func options_forTheOpenNetwork() throws {
        try withTemporaryDirectory { directory in
            let file = directory + "/keys"
            try "# ops\nalpha\nbeta # second\n".write(toFile: file, atomically: true, encoding: .utf8)
            let options = try ServerOptions.parse(
                ["--cors-origin", "https://app.example", "--cors-origin", "*", "--allowed-host", "api.example", "--api-keys", file],
                environment: [:])
            #expect(options.corsOrigins == ["https://app.example", "*"] && options.allowedHosts == ["api.example"])
            #expect(options.apiKeys == ["alpha", "beta"] && options.accessPolicy().keys.writes == .keyed)
            #expect(try ServerOptions.parse([], environment: ["LISTSERVICE_API_KEYS": "a,b"]).apiKeys == ["a", "b"])
            #expect(try ServerOptions.parse(["--host", "0.0.0.0"], environment: [:]).accessPolicy().keys.writes == .refused)
            #expect(
                try ServerOptions.parse(["--host", "0.0.0.0", "--allow-anonymous-writes"], environment: [:]).accessPolicy().keys.writes
                    == .open)
            #expect(try ServerOptions.parse([], environment: [:]).accessPolicy().keys.writes == .openOnLoopback)
            let empty = directory + "/empty"
            try "# nothing\n".write(toFile: empty, atomically: true, encoding: .utf8)
            for bad in [
                ["--cors-origin", "app.example"], ["--cors-origin", "https://app.example/x"], ["--api-keys", directory + "/missing"],
                ["--api-keys", empty], ["--require-key-for-reads"],
            ] {
                #expect(throws: ServerOptions.Failure.self) { try ServerOptions.parse(bad, environment: [:]) }
            }
        }
    }

    @Test func options_forRateLimits() throws {
        let defaults = try ServerOptions.parse([], environment: [:])
        #expect(defaults.readRate == RatePolicy(perSecond: 100, burst: 200) && defaults.writeRate == RatePolicy(perSecond: 20, burst: 40))
        #expect(defaults.accessPolicy().rates != nil)
        let given = try ServerOptions.parse(
            ["--rate-limit", "5/s", "--rate-burst", "7", "--write-rate-limit", "0.5", "--write-rate-burst", "2"], environment: [:])
        #expect(given.readRate == RatePolicy(perSecond: 5, burst: 7) && given.writeRate == RatePolicy(perSecond: 0.5, burst: 2))
        let off = try ServerOptions.parse(["--rate-limit", "off", "--write-rate-limit", "off"], environment: [:])
        #expect(off.readRate == nil && off.writeRate == nil && off.accessPolicy().rates == nil)
        for bad in [
            ["--rate-limit", "fast"], ["--rate-limit", "0/s"], ["--rate-limit", "off", "--rate-burst", "3"], ["--write-rate-burst", "0"],
        ] {
            #expect(throws: ServerOptions.Failure.self) { try ServerOptions.parse(bad, environment: [:]) }
        }
    }

    @Test func onTheNetworkWithoutKeys_writesAreRefused_andTheLogSaysSo() throws {
        let (process, port, _, log) = try startServer(["--in-memory", "--no-access-log", "--host", "0.0.0.0"])
        defer { process.terminate() }
        #expect(log.contains("event=writes-refused"))
        let refused = rawExchange(port: port, "POST /orders/o-000001/complete HTTP/1.1\r\nHost: box.example\r\nConnection: close\r\n\r\n")
        #expect(refused.hasPrefix("HTTP/1.1 401 ") && refused.contains("WWW-Authenticate: Bearer"))
        #expect(
            rawExchange(port: port, "GET /health HTTP/1.1\r\nHost: box.example\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 200 "))
    }

    @Test func keysNeverReachTheLog_andHeadSendsNoBody() throws {
        try withTemporaryDirectory { directory in
            let file = directory + "/keys"
            try "s3cret-key-for-writes\n".write(toFile: file, atomically: true, encoding: .utf8)
            let (process, port, errors, _) = try startServer(["--in-memory", "--api-keys", file])
            let written = rawExchange(
                port: port,
                "POST /users/u-000001/tap HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer s3cret-key-for-writes\r\nConnection: close\r\n\r\n"
            )
            #expect(written.hasPrefix("HTTP/1.1 200 "))
            let wrong = rawExchange(
                port: port,
                "POST /users/u-000001/tap HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer s3cret-guess\r\nConnection: close\r\n\r\n")
            #expect(wrong.hasPrefix("HTTP/1.1 401 "))

            let list = "/orders?filter=pending&q=a HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n"
            let get = rawExchange(port: port, "GET " + list)
            let head = rawExchange(port: port, "HEAD " + list)
            #expect(get.contains("Content-Encoding: gzip") && head.contains("Content-Encoding: gzip"))
            #expect(contentLength(head) == contentLength(get) && (contentLength(get) ?? 0) > 0)
            #expect(head.hasSuffix("\r\n\r\n"), "no body after the head")
            #expect(head.contains("X-Content-Type-Options: nosniff"))

            process.terminate()
            process.waitUntilExit()
            let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(log.contains("POST /users/u-000001/tap 200") && log.contains("POST /users/u-000001/tap 401"))
            #expect(!log.contains("s3cret"))
        }
    }
}
