import Glibc

extension Socket {
    /// The numeric address (no port) of a connected socket's peer, `127.0.0.1` or `::1`; nil
    /// if it cannot be read (the peer already left).
    static func peerAddress(_ fd: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let read = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard read == 0 else { return nil }
        let family = Int32(storage.ss_family)
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
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
