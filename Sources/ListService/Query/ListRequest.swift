/// What a client asked of a list, as sent: query parameters in order and the
/// `Accept-Language` header. Validation happens in each collection's criteria.
package struct ListRequest: Sendable {
    package var parameters: [(name: String, value: String)]
    package var acceptLanguage: String?
    /// The compressed coding the client takes, if any: made with the page and counted in its cost.
    package var compression: PageCompression?
    /// The client's network address, for the caps of a client that names no session.
    package var clientAddress: String?
    /// Who asks: decides which items the list holds (`ListCollection.readScope(for:)`).
    package var caller: Caller

    package init(
        parameters: [(name: String, value: String)], acceptLanguage: String? = nil, compression: PageCompression? = nil,
        clientAddress: String? = nil, caller: Caller = .anonymous
    ) {
        self.parameters = parameters
        self.acceptLanguage = acceptLanguage
        self.compression = compression
        self.clientAddress = clientAddress
        self.caller = caller
    }

    /// Identical requests have identical keys; a view-model compares keys to answer a repeat
    /// without parsing or validating anything again. The caller is part of it: a session is
    /// one identity's, but a token's role may change under the same account.
    package var cacheKey: String {
        var key = acceptLanguage ?? ""
        key.reserveCapacity(key.utf8.count + 64 + parameters.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 })
        if let identity = caller.identity {
            for part in ["\u{2}", identity.role.rawValue, "\u{2}", identity.subject] { key.append(part) }
        }
        for (name, value) in parameters {  // appended piece by piece: a warm hit makes this key every time
            key.append("\u{0}")
            key.append(name)
            key.append("\u{1}")
            key.append(value)
        }
        return key
    }
}
