/// Something a collection does beside its lists, rows and writes, declared in its folder
/// (`ListCollection.operations`) and served by the front door as `POST /{collection}/{path}`
/// with a JSON body: the quake feed import. It runs off the caller's thread and answers once.
package struct CollectionOperation: Sendable {
    /// The path under the collection's: `import` serves `POST /quakes/import`.
    package let path: String
    /// Whether the body may be as large as an import (`--max-import-bytes`) instead of an
    /// ordinary write's.
    package let takesLargeBodies: Bool
    /// The least role that may run it (`admin`: administrators and services).
    package let requiredRole: Identity.Role
    /// Runs on `body` (once per key, for a keyed request); `answer` gets the answer, or why
    /// nothing was done.
    package let run:
        @Sendable (_ body: [UInt8], KeyedRequest?, _ answer: @escaping @Sendable (Result<OperationAnswer, OperationRefusal>) -> Void) ->
            Void

    package init(
        path: String, takesLargeBodies: Bool, requiredRole: Identity.Role = .customer,
        run:
            @escaping @Sendable (
                _ body: [UInt8], KeyedRequest?, _ answer: @escaping @Sendable (Result<OperationAnswer, OperationRefusal>) -> Void
            )
            -> Void
    ) {
        self.path = path
        self.takesLargeBodies = takesLargeBodies
        self.requiredRole = requiredRole
        self.run = run
    }
}

/// What an operation answered: its JSON, and whether an earlier request under the same
/// `Idempotency-Key` recorded it (nothing was done now).
package struct OperationAnswer: Sendable {
    package let body: [UInt8]
    package let replayed: Bool

    /// A key's earlier answer, or the refusal of another request under it.
    static func replaying(_ recorded: Result<RecordedAnswer, WriteRejection>) -> Result<OperationAnswer, WriteRejection> {
        recorded.map { OperationAnswer(body: $0.body, replayed: true) }
    }
}

/// Why an operation did nothing.
package enum OperationRefusal: Error, Sendable {
    /// The body is not JSON, or past the parser's limits (400).
    case malformedJSON(String)
    /// The body is not what the operation takes, or storage refused (422, 503).
    case rejected(WriteRejection)
}
