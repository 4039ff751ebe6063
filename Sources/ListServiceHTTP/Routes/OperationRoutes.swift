import Basics
import Dispatch
import HTTPLite
import ListService

/// `POST /{name}/{path}`: what each collection declares beside its lists, rows and writes
/// (`CollectionEndpoint.operations`: the quake feed import). The caller's role is checked on
/// the head (403 before a byte of the body is read); the body must be JSON; the answer is
/// deferred until the operation is done.
enum OperationRoutes {
    /// Operations that take large bodies may reach `maxLargeBodyBytes`; others, the router's limit.
    static func add(_ endpoint: CollectionEndpoint, to router: inout Router, maxLargeBodyBytes: Int) {
        for operation in endpoint.operations {
            router.post(
                "/\(endpoint.name)/\(operation.path)", maxBodyBytes: operation.takesLargeBodies ? maxLargeBodyBytes : nil,
                headCheck: { head throws(HTTPError) in
                    guard head.caller.isAtLeast(operation.requiredRole) else {
                        throw HTTPError(
                            .forbidden, code: "forbidden",
                            detail: "You may not run \(endpoint.name)/\(operation.path); \(operation.requiredRole.plural) may.")
                    }
                    try IdempotencyKeyHeader.checked(JSONBody.headCheck(JSONBody.json))(head)
                }
            ) { request in
                ServerTimings.current?.route = "write"
                return .deferred { pending in
                    // The key's fingerprint hashes the body: off the event loop, as the body may be an import's.
                    RequestTrace.offLoop {
                        let keyed: KeyedRequest?
                        do throws(HTTPError) {
                            keyed = try IdempotencyKeyHeader.keyedRequest(request)
                        } catch {
                            return pending.complete(error.response)
                        }
                        operation.run(request.body, keyed) { outcome in
                            switch outcome {
                            case .success(let answer):
                                pending.complete(.json(answer.body, headers: answer.replayed ? IdempotencyKeyHeader.replayed : [:]))
                            case .failure(let refusal): pending.complete(refusal.httpError.response)
                            }
                        }
                    }
                }
            }
        }
    }
}
