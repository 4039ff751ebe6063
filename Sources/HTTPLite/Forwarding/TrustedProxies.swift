/// The reverse proxies whose word on the client's address is taken (`--trusted-proxies`): when
/// a connection comes from one of them, the request's `remoteAddress` is the client that
/// `Forwarded` (RFC 7239), else `X-Forwarded-For`, else `X-Real-IP` names, read from the right:
/// the rightmost hop that is not itself a trusted proxy. A connection from any other peer is
/// its own client, whatever its headers say: anyone can write them.
public struct TrustedProxies: Sendable, Equatable {
    public let ranges: [AddressRange]

    public init(_ ranges: [AddressRange] = []) { self.ranges = ranges }

    /// No proxy is trusted: every request's address is its connection's peer.
    public static let none = TrustedProxies()

    /// Parses `CIDR,CIDR,…`; the error names the part that is not an address or a block.
    public init(parsing text: String) throws(InvalidAddressRange) {
        var ranges: [AddressRange] = []
        for part in text.split(separator: ",") {
            let trimmed = trimmingOWS(part)
            guard let range = AddressRange(trimmed) else { throw InvalidAddressRange(text: String(trimmed)) }
            ranges.append(range)
        }
        guard !ranges.isEmpty else { throw InvalidAddressRange(text: text) }
        self.ranges = ranges
    }

    /// Whether `address` (numeric) is a trusted proxy.
    public func trusts(_ address: String) -> Bool { IPAddress(address).map(trusts) ?? false }

    func trusts(_ address: IPAddress) -> Bool { ranges.contains { $0.contains(address) } }

    /// The client's address of a request that came from the trusted proxy at `peer`: walking
    /// the hops its headers list from the right, the first that is not a trusted proxy, or the
    /// leftmost when all are. A hop that is not an address (`unknown`, an obfuscated name, a
    /// garbled value) ends the walk at the trusted hop before it: nothing past it is believed.
    func clientAddress(peer: String, headers: HTTPHeaders) -> String {
        var client = peer
        for hop in ForwardedHops.hops(in: headers).reversed() {
            guard let address = IPAddress(hop) else { break }
            client = address.description
            if !trusts(address) { break }
        }
        return client
    }
}

/// A `--trusted-proxies` part that is neither an address nor a CIDR block.
public struct InvalidAddressRange: Error, Equatable, CustomStringConvertible {
    public let text: String
    public var description: String { "'\(text)' is not an address or a CIDR block (10.0.0.0/8, 2001:db8::/32)" }
}
