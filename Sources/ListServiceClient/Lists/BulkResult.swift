import Foundation

/// An item a bulk action names: its id and, optionally, the version its row gave, so the
/// action refuses that item (412) when it changed since.
public struct BulkItem: Encodable, Sendable, Equatable {
    public var id: String
    public var ifMatch: String?

    public init(_ id: String, ifMatch version: String? = nil) {
        (self.id, self.ifMatch) = (id, version)
    }
}

/// What a bulk action did to each item, in the order the items were given: each is decided
/// on its own, and every accepted change was saved in one durable batch.
public struct BulkResult<Detail: Decodable & Sendable>: Decodable, Sendable {
    /// One item's outcome: `status` 200 with its `detail` as its single write answers it, 204
    /// when it was deleted, or the refusal's status with its `problem`.
    public struct Outcome: Decodable, Sendable {
        public var id: String
        public var status: Int
        public var detail: Detail?
        public var problem: ListServiceError?

        /// Whether the item was changed (or already so) or deleted.
        public var isAccepted: Bool { (200..<300).contains(status) }

        private enum CodingKeys: String, CodingKey {
            case id, status, row, problem
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            status = try container.decode(Int.self, forKey: .status)
            detail = try container.decodeIfPresent(Detail.self, forKey: .row)
            problem = try container.decodeIfPresent(ListServiceError.ProblemDocument.self, forKey: .problem).map {
                ListServiceError(status: status, problem: $0, retryAfter: nil)
            }
        }
    }

    public var items: [Outcome]
    /// How many items were accepted (0 when the service refused them all: a 422 `nothing-accepted`).
    public var accepted: Int
    public var refused: Int
}

/// A bulk action's body.
private struct BulkRequest: Encodable {
    var items: [BulkItem]
}

extension HTTPTransport {
    /// `POST /{collection}/actions/{action}` for `items`: the outcome of each, also when none
    /// was accepted (the service's 422 `nothing-accepted` lists them the same way). A body the
    /// service cannot take (no items, too many) throws its problem.
    func bulk<Detail>(_ collection: String, _ action: String, _ items: [BulkItem], display: Display)
        async throws(ListServiceError) -> BulkResult<Detail>
    {
        let path = "/\(collection)/actions/\(action.percentEncoded)" + display.query
        let (status, data) = try await sendForAnswer("POST", path, body: BulkRequest(items: items), keeping: [422])
        if status == 422 {
            // Every item refused: the problem lists them as a 200 would; any other 422 is the body's.
            let problem = ListServiceError(status: status, body: data, retryAfter: nil)
            guard problem.code == "nothing-accepted" else { throw problem }
        }
        do {
            return try JSONDecoder().decode(BulkResult<Detail>.self, from: data)
        } catch {
            throw .undecodable(error, path: path)
        }
    }
}
