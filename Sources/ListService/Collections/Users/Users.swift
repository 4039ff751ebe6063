import Foundation

/// The users collection, the tap counter: `GET /users?q=ada&sort=taps`.
package enum Users: ListCollection {
    package typealias Item = User
    package typealias Scope = NoScope

    /// One list: everyone.
    package enum View: String, ListChoice {
        case all
    }

    package enum SortField: String, ListChoice {
        case name
        /// Most tapped first by default.
        case taps
    }

    /// Every person is in the one view: nothing to read.
    package struct FilterFields: Sendable {}

    package static let name = "users"
    package static let itemName = "user"
    package static let viewParameter: String? = "view"
    package static let defaultView = View.all
    package static let fileName = "users.json"
    /// The shared data generator makes no people: without `users.json` the embedded ones serve.
    package static let isDataFileOptional = true

    package static func defaultSortField(for view: View) -> SortField { .name }

    package static func defaultDirection(for field: SortField, view: View) -> SortDirection {
        field == .taps ? .desc : .asc
    }

    package static func id(of user: User) -> String { user.id }
    package static func filterFields(of user: User) -> FilterFields { FilterFields() }
    package static func matches(_ fields: FilterFields, view: View, scope: NoScope) -> Bool { true }
    package static func holdsEveryItem(_ view: View) -> Bool { true }
    package static let searchableFields: [@Sendable (User) -> String] = [{ $0.name }]

    package static func sortValue(of user: User, by field: SortField) -> SortValue {
        switch field {
        // A name that starts with no letter (a digit, a symbol) sorts after every letter, as its
        // index letter "#" comes last.
        case .name: .text(user.name.first?.isLetter == false ? "\u{10FFFD}" + user.name : user.name)
        case .taps: .number(Int64(user.taps))
        }
    }

    package static func sortsByText(_ field: SortField) -> Bool { field == .name }

    package static let translations = UserPhrases.translations

    package static func writeRow(_ user: User, in context: inout RowContext<UserPhrases>, to json: inout JSONWriter) {
        json.field("id", user.id)
        json.field("name", user.name)
        json.field("initials", user.initials)
        json.field("taps", user.taps)
        json.field("tapsLabel", context.phrases.taps(user.taps, context.formatting.count(user.taps)))
    }

    package static func makeDefaultItems(anchor: Date) -> [User] { DefaultUsers.make() }

    package static func decodeItem(_ value: JSONValue, path: String) throws(JSONFieldError) -> User {
        try User(json: value, path: path)
    }

    /// A person in the data format.
    package static func writeItem(_ user: User, to json: inout JSONWriter) {
        json.beginObject()
        json.field("id", user.id)
        json.field("name", user.name)
        json.field("taps", user.taps)
        json.endObject()
    }
}
