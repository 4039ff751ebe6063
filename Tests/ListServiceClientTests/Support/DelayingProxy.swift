import Foundation
import Glibc

/// A relay in front of the server that holds up one request: the `occurrence`-th that starts
/// with `prefix` reaches the server `delay` seconds late (as when the network is slow on one
/// connection); every other byte passes at once, both ways, streams included. It notes each
/// request's line.
final class DelayingProxy: @unchecked Sendable {
    // @unchecked: `seen` and `lines` are read and written under `lock` only; the rest is
    // immutable after init.
    let port: Int
    private let listener: Int32
    private let serverPort: Int
    private let prefix: [UInt8]
    private let occurrence: Int
    private let delay: Double
    private let lock = NSLock()
    private var seen = 0
    private var lines: [String] = []

    /// The request line of every request the client sent through, in order.
    var requestLines: [String] { lock.withLock { lines } }

    init(serverPort: Int, delaying prefix: String, occurrence: Int, by delay: Double) throws {
        (self.serverPort, self.prefix, self.occurrence, self.delay) = (serverPort, Array(prefix.utf8), occurrence, delay)
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

    /// Relays one client's connection to a connection of its own to the server, both ways.
    private func serve(_ client: Int32) {
        guard let upstream = connectSocket(port: serverPort, timeout: 0) else {
            close(client)
            return
        }
        let pair = SocketPair(client, upstream)
        Thread.detachNewThread { [self] in relay(from: upstream, to: client, holding: false, pair) }
        relay(from: client, to: upstream, holding: true, pair)
    }

    /// Copies what `source` sends to `destination` until either side ends; requests (the
    /// client's side) are counted and the chosen one held.
    private func relay(from source: Int32, to destination: Int32, holding: Bool, _ pair: SocketPair) {
        defer { pair.finishOneWay() }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while case let count = chunk.withUnsafeMutableBytes({ recv(source, $0.baseAddress, $0.count, 0) }), count > 0 {
            if holding, let line = Self.requestLine(chunk[..<count]) {
                if isTheOneToHold(line) { Thread.sleep(forTimeInterval: delay) }
            }
            sendAll(destination, chunk[..<count])
        }
    }

    /// Notes `line`; whether it is the request to hold.
    private func isTheOneToHold(_ line: String) -> Bool {
        lock.withLock {
            lines.append(line)
            guard line.utf8.starts(with: prefix) else { return false }
            seen += 1
            return seen == occurrence
        }
    }

    /// The request line `bytes` starts with, if they start a request (a body's bytes do not).
    private static func requestLine(_ bytes: ArraySlice<UInt8>) -> String? {
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\r")) else { return nil }
        let line = String(decoding: bytes[..<end], as: UTF8.self)
        return line.hasSuffix(" HTTP/1.1") ? line : nil
    }

    /// A client's connection and the one to the server: when either way ends, both are shut
    /// down; the second way to finish closes them.
    private final class SocketPair: @unchecked Sendable {
        // @unchecked: `finished` is read and written under `lock` only.
        private let sockets: (Int32, Int32)
        private let lock = NSLock()
        private var finished = 0

        init(_ first: Int32, _ second: Int32) { sockets = (first, second) }

        func finishOneWay() {
            shutdown(sockets.0, Int32(SHUT_RDWR))
            shutdown(sockets.1, Int32(SHUT_RDWR))
            let isLast = lock.withLock {
                finished += 1
                return finished == 2
            }
            guard isLast else { return }
            close(sockets.0)
            close(sockets.1)
        }
    }
}
