import Dispatch
import Foundation
import HTTPLite
import Basics
import ListServiceHTTP

@testable import ListService

/// What tests send made-up requests to: the router, or the whole front door.
protocol RequestHandling {
    func handle(_ request: Request) throws -> Response
}

extension Router: RequestHandling {}
extension ServiceHandler: RequestHandling {}

extension RequestHandling {
    /// Routes a made-up request in process, waiting for a deferred response; errors become
    /// their problem responses, as the server would send them.
    func send(
        _ method: HTTPMethod, _ path: String, query: [(String, String)] = [], headers: HTTPHeaders = [:], json: String? = nil
    ) -> Response {
        var headers = headers
        if json != nil && headers["Content-Type"] == nil { headers.add(name: "Content-Type", value: "application/json") }
        let request = Request(
            method: method, path: path, query: QueryParameters(query.map { .init(name: $0.0, value: $0.1) }), headers: headers,
            body: Array((json ?? "").utf8))
        let response: Response
        do {
            response = try handle(request)
        } catch let error as HTTPError {
            return error.response
        } catch {
            return Response(status: .internalServerError)
        }
        guard case .deferred(let start) = response.body else { return response }
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Response?>(nil)
        start(
            DeferredResponse { response in
                result.withLock { $0 = response }
                done.signal()
            })
        guard done.wait(timeout: .now() + 10) == .success else { return Response(status: .internalServerError) }
        return result.withLock { $0 } ?? Response(status: .internalServerError)
    }
}

extension Response {
    /// The body's bytes, its parts joined (nil for a stream).
    var bodyBytes: [UInt8]? { body.joinedBytes }

    var bodyJSON: [String: Any] {
        guard let bytes = body.joinedBytes else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }
}
