import Basics
import CCrypto
import Foundation
import ListService

/// Signs HS256 tokens with a secret made at start-up: the demo identities' tokens. The
/// matching key (`verificationKey`) joins the key set that verifies them.
package struct TokenSigner: Sendable {
    private let secret: [UInt8]
    /// The `kid` its tokens carry.
    package let keyID: String
    package let verificationKey: VerificationKey

    /// A signer with a fresh random 256-bit secret; nil if the system has no randomness to give.
    package init?(keyID: String) {
        var secret = [UInt8](repeating: 0, count: 32)
        guard RAND_bytes(&secret, Int32(secret.count)) == 1 else { return nil }
        try? self.init(secret: secret, keyID: keyID)
    }

    /// A signer with `secret` (at least 32 bytes).
    package init(secret: [UInt8], keyID: String) throws(KeyError) {
        verificationKey = try VerificationKey(secret: secret, id: keyID)
        self.secret = secret
        self.keyID = keyID
    }

    /// The JWKS entry of the secret (`kty: oct`), for a key file.
    package var jwk: String { #"{"kty":"oct","alg":"HS256","kid":\#(JSONString.quoted(keyID)),"k":"\#(Base64URL.encode(secret))"}"# }

    /// A token for `identity` valid from `now` for `lifetime`.
    package func token(for identity: Identity, now: Date, lifetime: TimeInterval) -> String {
        let header = #"{"alg":"HS256","typ":"JWT","kid":\#(JSONString.quoted(keyID))}"#
        let issued = Int(now.timeIntervalSince1970)
        let claims =
            #"{"sub":\#(JSONString.quoted(identity.subject)),"role":"\#(identity.role.rawValue)","iat":\#(issued),"exp":\#(issued + Int(lifetime))}"#
        let signingInput = Base64URL.encode(header.utf8) + "." + Base64URL.encode(claims.utf8)
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let message = Array(signingInput.utf8)
        _ = HMAC(EVP_sha256(), secret, Int32(secret.count), message, message.count, &mac, &length)
        return signingInput + "." + Base64URL.encode(mac.prefix(Int(length)))
    }
}
