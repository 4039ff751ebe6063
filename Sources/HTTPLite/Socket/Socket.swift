import CSystem
import Glibc

/// Thin wrappers over the socket system calls HTTPLite uses. `EAGAIN` and `EINTR` are
/// control flow and come back as values, not errors.
enum Socket {
    /// A bound, listening, non-blocking socket and the port it got (useful with port 0).
    static func makeListener(host: String, port: UInt16, backlog: Int32) throws -> (fd: Int32, port: UInt16) {
        guard let address = SocketAddress(host: host, port: port) else {
            throw SocketError("parse host '\(host)'", errno: EINVAL)
        }
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket") }
        do {
            try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            let bound = address.withSockAddr { bind(fd, $0, $1) }
            guard bound == 0 else { throw SocketError("bind \(host):\(port)") }
            guard listen(fd, backlog) == 0 else { throw SocketError("listen") }
            return (fd, try localPort(fd))
        } catch {
            close(fd)
            throw error
        }
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) throws {
        var value = value
        guard setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SocketError("setsockopt")
        }
    }

    static func localPort(_ fd: Int32) throws -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw SocketError("getsockname") }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// The outcome of one non-blocking read or write.
    enum IOResult: Equatable {
        case transferred(Int)
        case wouldBlock
        case endOfStream
        case failed(Int32)
    }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        transfer(zeroMeans: .endOfStream) { recv(fd, buffer.baseAddress, buffer.count, 0) }
    }

    /// Writes `first`, `second` and `third` in one call (`sendmsg` with the parts that hold bytes).
    static func write(
        _ fd: Int32, _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer, _ third: UnsafeRawBufferPointer
    ) -> IOResult {
        let count = (first.isEmpty ? 0 : 1) + (second.isEmpty ? 0 : 1) + (third.isEmpty ? 0 : 1)
        if count < 2 { return write(fd, first.isEmpty ? (second.isEmpty ? third : second) : first) }
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: 3) { parts in
            var used = 0
            if !first.isEmpty { (parts[used], used) = (vector(first), used + 1) }
            if !second.isEmpty { (parts[used], used) = (vector(second), used + 1) }
            if !third.isEmpty { (parts[used], used) = (vector(third), used + 1) }
            var message = msghdr()
            message.msg_iov = parts.baseAddress
            message.msg_iovlen = used
            return transfer(zeroMeans: .transferred(0)) { sendmsg(fd, &message, Int32(MSG_NOSIGNAL)) }
        }
    }

    private static func vector(_ bytes: UnsafeRawBufferPointer) -> iovec {
        iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
    }

    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> IOResult {
        // MSG_NOSIGNAL: a peer that went away gives EPIPE here instead of killing the process.
        transfer(zeroMeans: .transferred(0)) { send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Runs `call` (a count, or -1 with `errno` set), again when a signal interrupted it;
    /// `zeroMeans` is what a count of 0 says (the end of a read, nothing written).
    private static func transfer(zeroMeans: IOResult, _ call: () -> Int) -> IOResult {
        while true {
            let count = call()
            if count > 0 { return .transferred(count) }
            if count == 0 { return zeroMeans }
            switch errno {
            case EINTR: continue
            case EAGAIN: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }
}
