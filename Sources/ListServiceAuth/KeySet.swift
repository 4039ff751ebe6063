import Basics
import ListService

/// The keys tokens are verified with: a JWKS document (RFC 7517) of `oct` (HS256), `RSA`
/// (RS256) and `EC` P-256 (ES256) keys. A key meant for encryption (`use: enc`) is left out;
/// any other key this service cannot use makes the whole document refused, so a typo never
/// silently drops a key.
package struct KeySet: Sendable {
    /// The keys configured, then those this process signs with itself (the demo identities').
    package let keys: [VerificationKey]
    /// How many of `keys`, from the first, were configured.
    private let configuredCount: Int

    /// `keys` as configured, and `signedHere`: keys this process signs its own tokens with,
    /// which always name their `kid`.
    package init(keys: [VerificationKey], signedHere: [VerificationKey] = []) {
        self.keys = keys + signedHere
        configuredCount = keys.count
    }

    /// The keys of a JWKS document; the error names the key and what is wrong with it.
    package init(jwks bytes: [UInt8]) throws(KeyError) {
        let document: JSONValue
        do { document = try JSONParser.parse(bytes, limits: .requestBody) } catch { throw KeyError("not JSON: \(error)") }
        guard case .object(let object) = document, case .array(let entries)? = object["keys"] else {
            throw KeyError("a JWKS document is an object with an array \"keys\"")
        }
        var keys: [VerificationKey] = []
        for (index, entry) in entries.enumerated() {
            do throws(KeyError) {
                if let key = try Self.key(entry) { keys.append(key) }
            } catch {
                throw KeyError("keys[\(index)]: \(error)")
            }
        }
        guard !keys.isEmpty else { throw KeyError("no key to verify signatures with") }
        let ids = keys.compactMap(\.id)
        guard Set(ids).count == ids.count else { throw KeyError("two keys have the same kid") }
        self.keys = keys
        configuredCount = keys.count
    }

    /// The key a token with header `kid` names: the key with that id; without one, the only
    /// key configured (a key signed with here is never meant by a token without a `kid`).
    package func key(for id: String?) -> VerificationKey? {
        guard let id else { return configuredCount == 1 ? keys[0] : nil }
        return keys.first { $0.id == id }
    }

    /// One entry's key; nil for a key meant for encryption.
    private static func key(_ entry: JSONValue) throws(KeyError) -> VerificationKey? {
        guard case .object(let fields) = entry else { throw KeyError("a key is an object") }
        func text(_ name: String) throws(KeyError) -> String? {
            switch fields[name] {
            case nil: return nil
            case .string(let value)?: return value
            default: throw KeyError("\"\(name)\" must be a string")
            }
        }
        func bytes(_ name: String) throws(KeyError) -> [UInt8] {
            guard let value = try text(name) else { throw KeyError("\"\(name)\" is missing") }
            guard let bytes = Base64URL.decode(value.utf8) else { throw KeyError("\"\(name)\" is not base64url") }
            return bytes
        }
        if try text("use") == "enc" { return nil }
        let id = try text("kid")
        let key: VerificationKey
        switch try text("kty") {
        case "oct": key = try VerificationKey(secret: try bytes("k"), id: id)
        case "RSA": key = try VerificationKey(rsaModulus: try bytes("n"), exponent: try bytes("e"), id: id)
        case "EC":
            guard try text("crv") == "P-256" else { throw KeyError("only the curve P-256 (ES256) is supported") }
            key = try VerificationKey(p256X: try bytes("x"), y: try bytes("y"), id: id)
        case let other: throw KeyError("kty \(other.map { "\"\($0)\"" } ?? "missing"): only oct, RSA and EC are supported")
        }
        if let algorithm = try text("alg"), algorithm != key.algorithm.rawValue {
            throw KeyError("alg \"\(algorithm)\" does not fit a \(try text("kty") ?? "") key (it verifies \(key.algorithm.rawValue))")
        }
        return key
    }
}
