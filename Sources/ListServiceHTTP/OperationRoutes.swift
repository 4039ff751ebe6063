import HTTPLite
import ListService

/// `POST /{name}/{path}`: what each collection declares beside its lists, rows and writes
/// (`CollectionEndpoint.operations`: the quake feed import). The body must be JSON; the
/// answer is deferred until the operation is done.
enum OperationRoutes {
    /// Operations that take large bodies may reach `maxLargeBodyBytes`; others, the router's limit.
    static func add(_ endpoint: CollectionEndpoint, to router: inout Router, maxLargeBodyBytes: Int) {
        for operation in endpoint.operations {
            router.post(
                "/\(endpoint.name)/\(operation.path)", maxBodyBytes: operation.takesLargeBodies ? maxLargeBodyBytes : nil,
                headCheck: JSONBody.headCheck(JSONBody.json)
            ) { request in
                let body = request.body
                return .deferred { pending in
                    operation.run(body) { outcome in
                        switch outcome {
                        case .success(let json): pending.complete(.json(json))
                        case .failure(let refusal): pending.complete(refusal.httpError.response)
                        }
                    }
                }
            }
        }
    }
}
