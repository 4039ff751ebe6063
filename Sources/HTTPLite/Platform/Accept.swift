import CSystem
import Glibc

extension Socket {
    /// Accepts one connection as non-blocking with Nagle off, with its peer's numeric address
    /// (which the kernel gives with the connection); nil when none is pending.
    static func accept(_ listener: Int32) throws -> (fd: Int32, peerAddress: String?)? {
        while true {
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { acceptNonBlocking(listener, $0, &length) }
            }
            if fd >= 0 {
                // Responses are written whole; Nagle would only delay them (RFC 9112 has no use for it).
                try? setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
                return (fd, numericAddress(peer))
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, ECONNABORTED, EPROTO: return nil
            default: throw SocketError("accept")
            }
        }
    }

    /// accept4(2) on Linux sets the flags in the same call; elsewhere accept(2) then fcntl(2).
    private static func acceptNonBlocking(_ listener: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t) -> Int32
    {
        #if os(Linux)
            return csystem_accept4(listener, address, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
        #else
            let fd = Glibc.accept(listener, address, &length)
            guard fd >= 0 else { return fd }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return fd
        #endif
    }

    /// The numeric address (no port) in `storage`, `127.0.0.1` or `::1`; nil for a family
    /// other than IPv4 and IPv6.
    private static func numericAddress(_ storage: sockaddr_storage) -> String? {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = Int32(storage.ss_family)
        let written: UnsafePointer<CChar>? = withUnsafeBytes(of: storage) { bytes in
            switch family {
            case AF_INET:
                var address = bytes.load(as: sockaddr_in.self).sin_addr
                return inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
            case AF_INET6:
                var address = bytes.load(as: sockaddr_in6.self).sin6_addr
                return inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
            default:
                return nil
            }
        }
        guard written != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
