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

    /// Identical requests have equal keys; a view-model compares keys to answer a repeat
    /// without parsing or validating anything again. The caller is part of it: a session is
    /// one identity's, but a token's role may change under the same account.
    package var cacheKey: Key { Key(acceptLanguage: acceptLanguage, identity: caller.identity, parameters: parameters) }

    /// What makes two requests the same: the request's own values, compared in place (a warm
    /// hit makes one per request, so it joins nothing into a string).
    package struct Key: Equatable, Sendable {
        let acceptLanguage: String?
        let identity: Identity?
        let parameters: [(name: String, value: String)]

        package static func == (a: Key, b: Key) -> Bool {
            a.acceptLanguage == b.acceptLanguage && a.identity == b.identity && a.parameters.count == b.parameters.count
                && zip(a.parameters, b.parameters).allSatisfy { $0 == $1 }
        }
    }
}
