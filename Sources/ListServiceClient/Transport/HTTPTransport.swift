import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests to the service: the session and the caller's token on each, answers decoded,
/// refusals turned into `ListServiceError`. A 401 asks the token provider once more and
/// tries again with what it gives.
final class HTTPTransport: Sendable {
    let baseURL: URL
    let sessionID: String
    let tokenProvider: (@Sendable () async throws -> String?)?
    let session: URLSession

    init(baseURL: URL, sessionID: String, tokenProvider: (@Sendable () async throws -> String?)?) {
        self.baseURL = baseURL
        self.sessionID = sessionID
        self.tokenProvider = tokenProvider
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration)
    }

    /// `path` (with its query) resolved against the service's address.
    func url(_ path: String) -> URL {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        return URL(string: base + path) ?? baseURL
    }

    /// A request for `path` with the session's headers and `token`.
    func request(_ method: String, _ path: String, token: String?, headers: [String: String] = [:], body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url(path))
        request.httpMethod = method
        request.setValue(sessionID, forHTTPHeaderField: "X-Session-ID")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// Calls `attempt` with the provider's token; on a 401, once more with a token asked for again.
    func withToken<Answer>(_ attempt: (String?) async throws(ListServiceError) -> Answer) async throws(ListServiceError) -> Answer {
        let token = try await currentToken()
        do {
            return try await attempt(token)
        } catch  where error.status == 401 && tokenProvider != nil {
            return try await attempt(try await currentToken())
        }
    }

    private func currentToken() async throws(ListServiceError) -> String? {
        guard let tokenProvider else { return nil }
        do {
            return try await tokenProvider()
        } catch {
            throw ListServiceError(status: 401, code: "no-token", title: "No token", detail: "The token provider failed: \(error)")
        }
    }

    /// Sends a request and decodes its 2xx answer as `Answer`.
    func send<Answer: Decodable>(
        _ method: String, _ path: String, body: (any Encodable)? = nil, headers: [String: String] = [:],
        as answer: Answer.Type
    ) async throws(ListServiceError) -> Answer {
        let data = try await sendForData(method, path, body: body, headers: headers)
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw .undecodable(error, path: path)
        }
    }

    /// How many times a request is sent again when its answer was lost (the connection
    /// dropped or timed out) or its write was still being processed.
    static let retries = 2

    /// Sends a request and answers its 2xx body. A write carries an `Idempotency-Key` of its
    /// own, so sending it again after a lost answer cannot do it twice: the service answers
    /// what the first one did.
    @discardableResult
    func sendForData(
        _ method: String, _ path: String, body: (any Encodable)? = nil, headers: [String: String] = [:]
    ) async throws(ListServiceError) -> Data {
        try await sendForAnswer(method, path, body: body, headers: headers).data
    }

    /// Sends a request as `sendForData` does, and answers its status and body: a 2xx, or a
    /// refusal whose status is among `keeping` (one whose body says more than its problem).
    func sendForAnswer(
        _ method: String, _ path: String, body: (any Encodable)? = nil, headers: [String: String] = [:], keeping: Set<Int> = []
    ) async throws(ListServiceError) -> (status: Int, data: Data) {
        let encoded: Data?
        do {
            encoded = try body.map { try JSONEncoder().encode($0) }
        } catch {
            throw ListServiceError(status: 0, code: "unencodable", title: "Unencodable body", detail: "\(error)")
        }
        var headers = headers
        if ["POST", "PATCH", "DELETE"].contains(method) { headers["Idempotency-Key"] = "\"\(UUID().uuidString.lowercased())\"" }
        var attempt = 0
        while true {
            do {
                return try await exchange(method, path, body: encoded, headers: headers, keeping: keeping)
            } catch  where attempt < Self.retries && (error.code == "unreachable" || error.code == "idempotency-key-in-flight") {
                attempt += 1
                try? await Task.sleep(nanoseconds: UInt64(attempt) * 250_000_000)
            }
        }
    }

    /// One exchange, with the token asked again once after a 401.
    private func exchange(
        _ method: String, _ path: String, body encoded: Data?, headers: [String: String], keeping: Set<Int>
    ) async throws(ListServiceError) -> (status: Int, data: Data) {
        try await withToken { (token) throws(ListServiceError) in
            let request = self.request(method, path, token: token, headers: headers, body: encoded)
            let (data, response): (Data, URLResponse)
            do {
                (data, response) = try await session.data(for: request)
            } catch {
                throw .unreachable(error)
            }
            return (try Self.status(of: response, keeping: keeping) { data }, data)
        }
    }

    /// The status of `response`: a 2xx, or a refusal among `keeping`; any other is thrown as
    /// its problem (the body it read from `body`).
    static func status(of response: URLResponse, keeping: Set<Int> = [], body: () -> Data) throws(ListServiceError) -> Int {
        guard let http = response as? HTTPURLResponse else { throw .unreachable(URLError(.badServerResponse)) }
        guard (200..<300).contains(http.statusCode) || keeping.contains(http.statusCode) else {
            throw ListServiceError(status: http.statusCode, body: body(), retryAfter: retryAfter(of: http))
        }
        return http.statusCode
    }

    /// A `Retry-After` in seconds (the delay form; a date is read as the time left until it).
    static func retryAfter(of response: HTTPURLResponse) -> TimeInterval? {
        guard let value = response.value(forHTTPHeaderField: "Retry-After") else { return nil }
        if let seconds = TimeInterval(value.trimmingCharacters(in: .whitespaces)) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }
}
