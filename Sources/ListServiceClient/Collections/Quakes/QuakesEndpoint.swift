/// The earthquakes' details (their writes are the USGS import, an operator's job).
public struct QuakesEndpoint: Sendable {
    let transport: HTTPTransport
    let display: Display

    public func detail(_ id: String) async throws(ListServiceError) -> QuakeDetail {
        try await transport.send("GET", "/quakes/\(id.percentEncoded)" + display.query, as: QuakeDetail.self)
    }
}
