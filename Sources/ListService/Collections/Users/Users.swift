import Foundation

/// The users collection, the tap counter: `GET /users?q=ada&sort=taps`.
public enum Users: ListCollection {
    public typealias Item = User
    public typealias Scope = NoScope

    /// One list: everyone.
    public enum View: String, ListChoice {
        case all
    }

    public enum SortField: String, ListChoice {
        case name
        /// Most tapped first by default.
        case taps
    }

    /// Every person is in the one view: nothing to read.
    public struct FilterFields: Sendable {}

    public static let name = "users"
    public static let itemName = "user"
    public static let viewParameter: String? = "view"
    public static let defaultView = View.all
    public static let fileName = "users.json"
    /// The shared data generator makes no people: without `users.json` the embedded ones serve.
    public static let isDataFileOptional = true

    public static func defaultSortField(for view: View) -> SortField { .name }

    public static func defaultDirection(for field: SortField, view: View) -> SortDirection {
        field == .taps ? .desc : .asc
    }

    public static func id(of user: User) -> String { user.id }
    public static func filterFields(of user: User) -> FilterFields { FilterFields() }
    public static func matches(_ fields: FilterFields, view: View, scope: NoScope) -> Bool { true }
    public static func holdsEveryItem(_ view: View) -> Bool { true }
    public static func searchableText(of user: User) -> [String] { [user.name] }

    public static func sortKey(of user: User, by field: SortField) -> SortKey {
        switch field {
        case .name: .text(user.name)
        case .taps: .number(Int64(user.taps))
        }
    }

    public static let translations = UserPhrases.translations

    public static func writeRow(_ user: User, in context: inout RowContext<UserPhrases>, to json: inout JSONWriter) {
        json.beginObject()
        json.field("id", user.id)
        json.field("name", user.name)
        json.field("initials", user.initials)
        json.field("taps", user.taps)
        json.field("tapsLabel", context.phrases.taps(user.taps))
        json.endObject()
    }

    public static func makeDefaultItems(anchor: Date) -> [User] { DefaultUsers.make() }

    public static func decodeItem(_ value: JSONValue, path: String) throws(JSONFieldError) -> User {
        try User(json: value, path: path)
    }

    /// A person in the data format.
    public static func writeItem(_ user: User, to json: inout JSONWriter) {
        json.beginObject()
        json.field("id", user.id)
        json.field("name", user.name)
        json.field("taps", user.taps)
        json.endObject()
    }
}
