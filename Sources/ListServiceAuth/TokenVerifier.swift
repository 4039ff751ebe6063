import Basics
import Foundation
import ListService

/// Verifies bearer tokens (JWS compact JWTs, RFC 7519) against a key set and turns a good one
/// into an identity: the signature by the key the token's `kid` names, in that key's one
/// algorithm; then `exp` (required), `nbf` and `iat` with a leeway, `iss` and `aud` when
/// configured, `sub` (required) and the role claim.
package struct TokenVerifier: Sendable {
    package struct Configuration: Sendable {
        /// The `iss` a token must carry; nil: any.
        package var issuer: String?
        /// An `aud` a token must carry (one of its audiences); nil: any.
        package var audience: String?
        /// How far clocks may disagree when judging `exp`, `nbf` and `iat`.
        package var leeway: TimeInterval = 30
        /// The claim that holds the role.
        package var roleClaim = "role"

        package init(issuer: String? = nil, audience: String? = nil, leeway: TimeInterval = 30, roleClaim: String = "role") {
            self.issuer = issuer
            self.audience = audience
            self.leeway = leeway
            self.roleClaim = roleClaim
        }
    }

    package let keys: KeySet
    package let configuration: Configuration

    package init(keys: KeySet, configuration: Configuration = Configuration()) {
        self.keys = keys
        self.configuration = configuration
    }

    /// The identity `token` proves at `now`, with when it stops being valid, or why it does not.
    package func verify(_ token: String, now: Date) -> Result<VerifiedToken, TokenRefusal> {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2])
        else { return .failure(.invalid("not a signed JWT (three base64url parts)")) }
        guard case .object(let header)? = try? JSONParser.parse(headerBytes, limits: .requestBody) else {
            return .failure(.invalid("the header is not a JSON object"))
        }
        guard case .string(let algorithm)? = header["alg"] else { return .failure(.invalid("the header names no alg")) }
        if header["crit"] != nil { return .failure(.invalid("the header has crit extensions this service does not know")) }
        let keyID: String?
        switch header["kid"] {
        case nil: keyID = nil
        case .string(let id)?: keyID = id
        default: return .failure(.invalid("kid is not a string"))
        }
        guard let key = keys.key(for: keyID) else {
            return .failure(.invalid("no key \(keyID.map { "with kid \($0)" } ?? "without a kid")"))
        }
        // The key decides the algorithm: a token's alg that differs (none, or HS256 against an RSA key) is refused.
        guard algorithm == key.algorithm.rawValue else {
            return .failure(.invalid("alg \(algorithm) is not the key's \(key.algorithm.rawValue)"))
        }
        let signedPart = Array(token.utf8.prefix(parts[0].count + 1 + parts[1].count))
        guard key.verifies(signature, of: signedPart) else { return .failure(.invalid("the signature does not verify")) }
        guard case .object(let claims)? = try? JSONParser.parse(payloadBytes, limits: .requestBody) else {
            return .failure(.invalid("the claims are not a JSON object"))
        }
        return check(claims, now: now)
    }

    /// The time claims, issuer, audience, subject and role of a token whose signature verified.
    private func check(_ claims: JSONObject, now: Date) -> Result<VerifiedToken, TokenRefusal> {
        func time(_ name: String) -> Result<Date?, TokenRefusal> {
            switch claims[name] {
            case nil: return .success(nil)
            case .number(let number)?:
                guard let seconds = number.double, seconds.isFinite else { return .failure(.invalid("\(name) is not a time")) }
                return .success(Date(timeIntervalSince1970: seconds))
            default: return .failure(.invalid("\(name) is not a number"))
            }
        }
        let leeway = configuration.leeway
        let expiry: Date
        switch time("exp") {
        case .success(let date?): expiry = date
        case .success(nil): return .failure(.invalid("the token has no exp"))
        case .failure(let refusal): return .failure(refusal)
        }
        guard now < expiry.addingTimeInterval(leeway) else { return .failure(.expired) }
        for name in ["nbf", "iat"] {
            switch time(name) {
            case .success(let date?) where now.addingTimeInterval(leeway) < date: return .failure(.notYetValid)
            case .success: break
            case .failure(let refusal): return .failure(refusal)
            }
        }
        if let issuer = configuration.issuer, claims["iss"] != .string(issuer) { return .failure(.invalid("iss is not \(issuer)")) }
        if let audience = configuration.audience {
            let audiences: [JSONValue]
            switch claims["aud"] {
            case .array(let values)?: audiences = values
            case let value?: audiences = [value]
            case nil: audiences = []
            }
            guard audiences.contains(.string(audience)) else { return .failure(.invalid("aud does not include \(audience)")) }
        }
        guard case .string(let subject)? = claims["sub"], !subject.isEmpty else { return .failure(.invalid("the token has no sub")) }
        let role: Identity.Role
        switch claims[configuration.roleClaim] {
        case nil: role = .customer
        case .string(let name)?:
            guard let named = Identity.Role(rawValue: name), named != .service else {
                return .failure(.invalid("\(configuration.roleClaim) \(name) is not customer, staff or admin"))
            }
            role = named
        default: return .failure(.invalid("\(configuration.roleClaim) is not a string"))
        }
        return .success(VerifiedToken(identity: Identity(subject: subject, role: role), expiresAt: expiry.addingTimeInterval(leeway)))
    }
}

/// A token that verified: whose it is, and until when it may be taken (its `exp` plus the leeway).
package struct VerifiedToken: Sendable, Equatable {
    package let identity: Identity
    package let expiresAt: Date
}

/// Why a token was refused. A client is told only which of the three; the reason of an
/// invalid one is for the log.
package enum TokenRefusal: Error, Sendable, Equatable {
    case expired
    case notYetValid
    case invalid(String)

    /// What a 401's detail says.
    package var detail: String {
        switch self {
        case .expired: "The bearer token has expired."
        case .notYetValid: "The bearer token is not yet valid."
        case .invalid: "The bearer token is not valid."
        }
    }
}
