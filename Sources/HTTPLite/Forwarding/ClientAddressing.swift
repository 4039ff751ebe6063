/// How a connection's requests get their `remoteAddress`: its peer's address, or, when the
/// peer is a trusted proxy, the client the request's forwarding headers name.
struct ClientAddressing {
    let peer: String?
    /// The trusted proxies when `peer` is one of them; nil otherwise, and no header is read.
    private let proxies: TrustedProxies?

    init(peer: String?, trustedProxies: TrustedProxies) {
        self.peer = peer
        proxies = peer.map(trustedProxies.trusts) == true ? trustedProxies : nil
    }

    /// The address of the client that sent a request with `headers` on this connection.
    func clientAddress(_ headers: HTTPHeaders) -> String? {
        guard let peer, let proxies else { return peer }
        return proxies.clientAddress(peer: peer, headers: headers)
    }
}
