/// What a client asked of a list, as sent: query parameters in order and the
/// `Accept-Language` header. Validation happens in each collection's criteria.
package struct ListRequest: Sendable {
    package var parameters: [(name: String, value: String)]
    package var acceptLanguage: String?
    /// The compressed coding the client takes, if any: made with the page and counted in its cost.
    package var compression: PageCompression?

    package init(parameters: [(name: String, value: String)], acceptLanguage: String? = nil, compression: PageCompression? = nil) {
        self.parameters = parameters
        self.acceptLanguage = acceptLanguage
        self.compression = compression
    }

    /// Identical requests have identical keys; a view-model compares keys to answer a repeat
    /// without parsing or validating anything again.
    package var cacheKey: String {
        var key = acceptLanguage ?? ""
        for (name, value) in parameters {
            key += "\u{0}\(name)\u{1}\(value)"
        }
        return key
    }
}
