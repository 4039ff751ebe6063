import Foundation

/// Adding, renaming and tapping people.
extension Users: EditableCollection {
    package static func sequence(of id: String) -> Int? {
        id.hasPrefix("u-") ? Int(id.dropFirst(2)) : nil
    }

    /// The id the service gives its `sequence`th person: `u-000123`.
    static func id(sequence: Int) -> String { "u-" + String(zeroPadded: sequence, width: 6) }

    static let maxNameLength = 100

    /// `POST /users`: `name` required; a new person has no taps.
    package static func makeItem(from body: JSONObject, sequence: Int, context: EditContext) -> Result<User, WriteRejection> {
        var validator = FieldValidator(body)
        validator.rejectUnknown(["name"])
        let name = validator.text("name", maxLength: maxNameLength)
        if let rejection = validator.result { return .failure(rejection) }
        guard let name else { return .failure(.invalid([])) }
        return .success(User(id: id(sequence: sequence), name: name, taps: 0))
    }

    /// `PATCH /users/:id`: a JSON merge patch of `name`.
    package static func patch(_ user: User, with body: JSONObject, context: EditContext) -> Result<User, WriteRejection> {
        var validator = FieldValidator(body)
        validator.rejectUnknown(["name"])
        var patched = user
        if body["name"] != nil, let name = validator.text("name", maxLength: maxNameLength) { patched.name = name }
        if let rejection = validator.result { return .failure(rejection) }
        return .success(patched)
    }

    /// `POST /users/:id/tap`: one more tap.
    package static let actions = ["tap"]

    package static func perform(_ action: String, on user: User) -> Result<User, WriteRejection> {
        guard action == "tap" else { return .failure(.notFound("action '\(action)'")) }
        guard let tapped = user.tapped() else { return .failure(.conflict("This user has the most taps a count can hold.")) }
        return .success(tapped)
    }
}
