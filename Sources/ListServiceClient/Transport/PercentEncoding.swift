import Foundation

extension String {
    /// Safe as one path segment or one query value: everything but RFC 3986's unreserved
    /// characters percent-encoded.
    var percentEncoded: String {
        addingPercentEncoding(withAllowedCharacters: .unreserved) ?? self
    }
}

extension CharacterSet {
    fileprivate static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

/// An `If-Match` header naming `version`, when there is one.
func ifMatch(_ version: String?) -> [String: String] {
    version.map { ["If-Match": "\"\($0)\""] } ?? [:]
}
