import Foundation
import Glibc

@testable import HTTPLite

/// A blocking TCP client that speaks raw bytes, for tests against a live server.
final class RawClient {
    let fd: Int32

    init(port: UInt16, receiveTimeoutMilliseconds: Int = 5000) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket") }
        var timeout = timeval(tv_sec: receiveTimeoutMilliseconds / 1000, tv_usec: (receiveTimeoutMilliseconds % 1000) * 1000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let error = SocketError("connect")
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func closeWriting() { shutdown(fd, Int32(SHUT_WR)) }

    private var pending: [UInt8] = []
    /// Set once the server closed the connection (or the read timed out).
    private(set) var isClosedByServer = false

    /// Reads one response (head plus Content-Length or chunked body); nil on close or timeout.
    func readResponse(toHead: Bool = false) -> ClientResponse? {
        while true {
            if let response = ClientResponse.parse(&pending, toHead: toHead) { return response }
            guard receiveMore() else { return nil }
        }
    }

    /// Reads until the server closes; true if it did within the receive timeout.
    func waitForClose() -> Bool {
        while receiveMore() {}
        return isClosedByServer
    }

    private func receiveMore() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            pending += chunk[..<count]
            return true
        }
        isClosedByServer = count == 0 || errno == ECONNRESET
        return false
    }
}

/// A response as the client saw it.
struct ClientResponse {
    var status: Int
    var headers: [(String, String)]
    var body: String

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Takes one complete response off the front of `bytes`, if it has fully arrived.
    static func parse(_ bytes: inout [UInt8], toHead: Bool = false) -> ClientResponse? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
        let headLines = String(decoding: bytes[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = headLines.first, statusLine.count >= 12, let status = Int(statusLine.dropFirst(9).prefix(3))
        else { return nil }
        let headers = headLines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = ClientResponse(status: status, headers: headers, body: "")
        let bodyStart = headEnd + 4
        if response.header("Transfer-Encoding") == "chunked" {
            var cursor = bodyStart
            var body: [UInt8] = []
            while true {
                guard let lineEnd = bytes[cursor...].indices.first(where: { bytes[$0...].starts(with: [13, 10]) }),
                    let size = Int(String(decoding: bytes[cursor..<lineEnd], as: UTF8.self), radix: 16)
                else { return nil }
                let dataStart = lineEnd + 2
                guard bytes.count >= dataStart + size + 2 else { return nil }
                body += bytes[dataStart..<(dataStart + size)]
                cursor = dataStart + size + 2
                if size == 0 { break }
            }
            response.body = String(decoding: body, as: UTF8.self)
            bytes.removeFirst(cursor)
            return response
        }
        let length = toHead || status == 100 || status == 204 || status == 304 ? 0 : Int(response.header("Content-Length") ?? "0") ?? 0
        guard bytes.count >= bodyStart + length else { return nil }
        response.body = String(decoding: bytes[bodyStart..<(bodyStart + length)], as: UTF8.self)
        bytes.removeFirst(bodyStart + length)
        return response
    }
}
