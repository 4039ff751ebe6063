import Foundation
import Glibc

/// A proxy in front of the server that loses the answers to the first `losing` requests it
/// forwards: each reaches the server and is done there, and the client's connection is then
/// closed without a reply (as when a network drops an answer).
final class AnswerLosingProxy: @unchecked Sendable {
    // @unchecked: `forwarded` and `lost` are read and written under `lock` only; the rest is
    // immutable after init.
    let port: Int
    private let listener: Int32
    private let serverPort: Int
    private let losing: Int
    private let lock = NSLock()
    private var forwardedCount = 0
    private var lostCount = 0

    var forwarded: Int { lock.withLock { forwardedCount } }
    var lost: Int { lock.withLock { lostCount } }

    init(serverPort: Int, losing: Int = 1) throws {
        (self.serverPort, self.losing) = (serverPort, losing)
        guard let (listener, port) = listenOnLoopback() else { throw LoopbackSocketError() }
        (self.listener, self.port) = (listener, port)
        acceptEach(on: listener) { [weak self] client in
            guard let self else {
                close(client)
                return
            }
            serve(client)
        }
    }

    deinit { shutdown(listener, Int32(SHUT_RDWR)) }

    /// One request per connection, forwarded with `Connection: close`; its answer lost or passed on.
    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = Self.readMessage(client), let upstream = connectSocket(port: serverPort) else { return }
        defer { close(upstream) }
        sendAll(upstream, Self.closingConnection(request))
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while case let count = chunk.withUnsafeMutableBytes({ recv(upstream, $0.baseAddress, $0.count, 0) }), count > 0 {
            answer += chunk[..<count]
        }
        let shouldLose = lock.withLock {
            forwardedCount += 1
            guard lostCount < losing else { return false }
            lostCount += 1
            return true
        }
        if !shouldLose { sendAll(client, Self.closingConnection(answer)) }
    }

    /// A request's head and its `Content-Length` bytes of body.
    private static func readMessage(_ socket: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let text = String(decoding: bytes, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
                if bytes.count >= text.utf8.distance(from: text.startIndex, to: end.upperBound) + length { return bytes }
            }
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            bytes += chunk[..<count]
        }
    }

    /// `message` with its `Connection` header replaced by `Connection: close` (the body, gzip
    /// perhaps, left byte for byte).
    private static func closingConnection(_ message: [UInt8]) -> [UInt8] {
        let blank: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = message.indices.first(where: { message[$0...].starts(with: blank) }) else { return message }
        var lines = String(decoding: message[..<end], as: UTF8.self).components(separatedBy: "\r\n")
            .filter { !$0.lowercased().hasPrefix("connection:") }
        lines.insert("Connection: close", at: 1)
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + message[(end + 4)...]
    }
}
