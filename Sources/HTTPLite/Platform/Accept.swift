import CSystem
import Glibc

extension Socket {
    /// Accepts one connection as non-blocking with Nagle off; nil when none is pending.
    static func accept(_ listener: Int32) throws -> Int32? {
        while true {
            let fd = acceptNonBlocking(listener)
            if fd >= 0 {
                // Responses are written whole; Nagle would only delay them (RFC 9112 has no use for it).
                try? setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
                return fd
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, ECONNABORTED, EPROTO: return nil
            default: throw SocketError("accept")
            }
        }
    }

    /// accept4(2) on Linux sets the flags in the same call; elsewhere accept(2) then fcntl(2).
    private static func acceptNonBlocking(_ listener: Int32) -> Int32 {
        #if os(Linux)
            return csystem_accept4(listener, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
        #else
            let fd = Glibc.accept(listener, nil, nil)
            guard fd >= 0 else { return fd }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return fd
        #endif
    }
}
