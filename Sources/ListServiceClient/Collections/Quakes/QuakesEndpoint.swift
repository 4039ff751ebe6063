/// The earthquakes' details and the session's selected quake (their writes are the USGS
/// import, an operator's job).
public struct QuakesEndpoint: Sendable {
    let transport: HTTPTransport
    let display: Display

    public func detail(_ id: String) async throws(ListServiceError) -> QuakeDetail {
        try await transport.send("GET", "/quakes/\(id.percentEncoded)" + display.query, as: QuakeDetail.self)
    }

    /// Selects the quake `id` for the client's session (nil clears it), the one selection its
    /// quake lists and map share: their pages and snapshots echo it as `selectedId`. Answers
    /// the selection as stored; an id the service does not hold is its 404.
    @discardableResult
    public func select(_ id: String?) async throws(ListServiceError) -> String? {
        try await transport.send("PUT", "/session/selection", body: Selection(id: id), as: Stored.self).selectedId
    }

    /// The body of `PUT /session/selection`: `id` is sent as `null` to clear.
    private struct Selection: Encodable {
        var id: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("quakes", forKey: .collection)
            try container.encode(id, forKey: .id)
        }

        private enum CodingKeys: String, CodingKey {
            case collection, id
        }
    }

    private struct Stored: Decodable {
        var selectedId: String?
    }
}
