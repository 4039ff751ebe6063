import HTTPLite

/// The names the service answers to in `Host`: a guard against DNS rebinding, where a page
/// on another site resolves its own name to this machine and reads or writes through it.
package struct AllowedHosts: Sendable, Equatable {
    /// Lowercased names without a port; nil answers any name.
    private let names: Set<String>?

    /// What a server bound to a loopback address answers by default.
    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// `names` (from `--allowed-host`) when given; else the loopback names for a server bound
    /// to a loopback address, and any name for one bound to another (its names are unknown).
    package init(names: [String], boundTo address: String) {
        if !names.isEmpty {
            self.names = Set(names.map { $0.lowercased() })
        } else {
            self.names = Self.isLoopback(address) ? Self.loopbackNames : nil
        }
    }

    /// Any host: in-process tests, and servers that leave the check to a proxy.
    package static let any = AllowedHosts(names: nil)

    private init(names: Set<String>?) { self.names = names }

    /// Whether an address names this machine only (`127.0.0.0/8`, `::1`, `localhost`).
    package static func isLoopback(_ address: String) -> Bool {
        let address = address.lowercased()
        return address == "localhost" || address == "::1" || address == "[::1]" || address.hasPrefix("127.")
    }

    /// Whether a request with this `Host` value is served; a request without one (HTTP/1.0)
    /// is, since browsers always send it.
    func admits(_ host: String?) -> Bool {
        guard let names, let host else { return true }
        return names.contains(Self.name(ofHost: host))
    }

    /// `Host` without its port, lowercased: `[::1]:8080` → `[::1]`, `LocalHost:80` → `localhost`.
    static func name(ofHost host: String) -> String {
        let host = host.lowercased()
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") { return String(host[...close]) }
        return String(host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
