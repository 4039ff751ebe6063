/// The addresses a request passed through on its way here, as the proxies before it wrote
/// them, oldest first: `Forwarded`'s `for=` parameters, else `X-Forwarded-For`'s list, else
/// `X-Real-IP`. Each hop is the bare address (quotes, brackets and a port taken off); a hop
/// that is not an address stays as written, for the reader to stop at.
enum ForwardedHops {
    /// Header names that say a request came through a proxy.
    static let headerNames = ["Forwarded", "X-Forwarded-For", "X-Real-IP"]

    static func hops(in headers: HTTPHeaders) -> [Substring] {
        let forwarded = headers.values(for: "Forwarded")
        if !forwarded.isEmpty {
            return forwarded.flatMap { $0.split(separator: ",") }.map { element in
                let pairs = element.split(separator: ";").map(trimmingOWS)
                let value = pairs.first { $0.lowercased().hasPrefix("for=") }?.dropFirst(4) ?? ""
                return bareAddress(value)
            }
        }
        let listed = headers.values(for: "X-Forwarded-For")
        if !listed.isEmpty { return listed.flatMap { $0.split(separator: ",") }.map { bareAddress(trimmingOWS($0)) } }
        return headers.values(for: "X-Real-IP").map { bareAddress(trimmingOWS(Substring($0))) }
    }

    /// `"[2001:db8::1]:4711"` → `2001:db8::1`, `192.0.2.1:80` → `192.0.2.1`; anything else as it is.
    static func bareAddress(_ value: Substring) -> Substring {
        var value = value
        if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
        if value.first == "[", let close = value.firstIndex(of: "]") { return value[value.index(after: value.startIndex)..<close] }
        if let colon = value.firstIndex(of: ":"), value.lastIndex(of: ":") == colon { return value[..<colon] }
        return value
    }
}

extension Request {
    /// Whether a proxy says it passed the request on (`Forwarded`, `X-Forwarded-For` or
    /// `X-Real-IP` present): the peer is then not the one asking, whatever its address.
    public var isForwarded: Bool { ForwardedHops.headerNames.contains { headers[$0] != nil } }
}
