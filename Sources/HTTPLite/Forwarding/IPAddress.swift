import Glibc

/// A numeric IPv4 or IPv6 address as its bytes (4 or 16); an IPv4-mapped IPv6 address
/// (`::ffff:192.0.2.1`) is the IPv4 address it maps, so either spelling matches one range.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    let bytes: [UInt8]

    /// Parses `192.0.2.1` or `2001:db8::1`; nil for anything else (a name, a port, brackets).
    public init?(_ text: some StringProtocol) {
        var v4 = in_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, String(text), &v6) == 1 else { return nil }
        let all = withUnsafeBytes(of: v6) { Array($0) }
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
        bytes = all.prefix(12).elementsEqual(mappedPrefix) ? Array(all.suffix(4)) : all
    }

    /// The address as `inet_ntop` writes it (`192.0.2.1`, `2001:db8::1`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        return bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress,
                inet_ntop(bytes.count == 4 ? AF_INET : AF_INET6, base, &buffer, socklen_t(buffer.count)) != nil
            else { return "" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}

/// A block of addresses in CIDR notation (`10.0.0.0/8`, `2001:db8::/32`); a bare address is a
/// block of one.
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    let base: IPAddress
    let prefixLength: Int

    /// Parses `ADDRESS` or `ADDRESS/BITS`; nil for anything else, or bits past the address's length.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        let maxLength = address.bytes.count * 8
        // A /N written for an IPv4-mapped IPv6 block counts the mapped prefix's 96 bits.
        let isMappedIPv6 = address.bytes.count == 4 && parts[0].contains(":")
        if parts.count == 2 {
            guard let bits = Int(parts[1]), bits >= 0, bits <= (isMappedIPv6 ? 128 : maxLength) else { return nil }
            prefixLength = isMappedIPv6 ? max(0, bits - 96) : bits
        } else {
            prefixLength = maxLength
        }
        base = address
    }

    /// Whether `address` lies in the block (an IPv4 address is never in an IPv6 block, nor the
    /// other way round, mapped addresses aside).
    public func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == base.bytes.count else { return false }
        var remaining = prefixLength
        for (a, b) in zip(address.bytes, base.bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if a & mask != b & mask { return false }
            remaining -= 8
        }
        return true
    }

    public var description: String { "\(base)/\(prefixLength)" }
}
