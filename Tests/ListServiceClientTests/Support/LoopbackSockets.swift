import Foundation
import Glibc

/// A listening socket on 127.0.0.1 at a port the system picks, and that port; nil if none.
func listenOnLoopback() -> (socket: Int32, port: Int)? {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
        }
    }
    guard bound else {
        close(listener)
        return nil
    }
    return (listener, Int(UInt16(bigEndian: address.sin_port)))
}

/// No listening socket could be had on 127.0.0.1.
struct LoopbackSocketError: Error, CustomStringConvertible {
    var description: String { "could not listen on 127.0.0.1 (\(String(cString: strerror(errno))))" }
}

/// Sends every byte of `bytes` on `socket`, or stops at the first failure (the peer gone).
func sendAll<Bytes: Collection<UInt8>>(_ socket: Int32, _ bytes: Bytes) {
    let bytes = Array(bytes)
    var sent = 0
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard count > 0 else { return }
        sent += count
    }
}

/// Accepts connections on `listener` until it is shut down, handing each to `serve` on a
/// thread of its own, then closes it. `serve` should hold its owner weakly: the owner's
/// `deinit` is what shuts the listener down.
func acceptEach(on listener: Int32, _ serve: @escaping @Sendable (Int32) -> Void) {
    Thread.detachNewThread {
        while case let client = accept(listener, nil, nil), client >= 0 {
            Thread.detachNewThread { serve(client) }
        }
        close(listener)
    }
}
