import Basics
import Foundation
import ListService
import Testing

@testable import ListServiceAuth

/// Bearer tokens minted with OpenSSL, verified as the service does: each algorithm, each
/// claim, and the attacks a verifier must refuse.
@Suite struct TokenVerifierTests {
    static let hs = TokenMint(.hs256, keyID: "hs")
    static let rs = TokenMint(.rs256, keyID: "rs")
    static let es = TokenMint(.es256, keyID: "es")
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func verifier(_ mints: TokenMint..., configuration: TokenVerifier.Configuration = .init()) throws -> TokenVerifier {
        TokenVerifier(
            keys: try KeySet(jwks: Array(#"{"keys":[\#(mints.map(\.jwk).joined(separator: ","))]}"#.utf8)), configuration: configuration)
    }

    @Test(arguments: [hs, rs, es])
    func eachAlgorithm_verifiesItsOwnTokens_andNotAnAlteredOne(_ mint: TokenMint) throws {
        let verifier = try verifier(Self.hs, Self.rs, Self.es)
        let token = mint.token(TokenMint.claims(sub: "c-0042", now: now, extra: #""role":"staff""#))
        let verified = try verifier.verify(token, now: now).get()
        #expect(verified.identity == Identity(subject: "c-0042", role: .staff))
        #expect(verified.expiresAt == now.addingTimeInterval(3600 + 30))
        // Another subject with the same signature: the signature no longer fits.
        let parts = token.split(separator: ".")
        let forged = [parts[0], Substring(Base64URL.encode(TokenMint.claims(sub: "c-0001", now: now).utf8)), parts[2]].joined(
            separator: ".")
        #expect(verifier.verify(forged, now: now) == .failure(.invalid("the signature does not verify")))
    }

    @Test func oneConfiguredKey_takesATokenWithoutKid_besideAKeySignedWithHere() throws {
        let configured = TokenMint(.rs256)
        let here = try #require(TokenSigner(keyID: "demo"))
        let keys = try KeySet(jwks: Array(#"{"keys":[\#(configured.jwk)]}"#.utf8))
        let verifier = TokenVerifier(keys: KeySet(keys: keys.keys, signedHere: [here.verificationKey]))
        let withoutKid = configured.token(TokenMint.claims(sub: "c-0007", now: now))
        #expect(try verifier.verify(withoutKid, now: now).get().identity == Identity(subject: "c-0007", role: .customer))
        let signedHere = here.token(for: Identity(subject: "admin-1", role: .admin), now: now, lifetime: 600)
        #expect(try verifier.verify(signedHere, now: now).get().identity.subject == "admin-1")
        let onlyHere = TokenVerifier(keys: KeySet(keys: [], signedHere: [here.verificationKey]))
        #expect(
            onlyHere.verify(withoutKid, now: now) == .failure(.invalid("no key without a kid")),
            "a key signed with here is never meant by a token without a kid")
    }

    @Test func times_expired_notYetValid_andTheLeeway() throws {
        let verifier = try verifier(Self.hs)
        let token = Self.hs.token(TokenMint.claims(now: now, expiresIn: 60))
        #expect((try? verifier.verify(token, now: now.addingTimeInterval(60 + 29)).get()) != nil, "within the leeway")
        #expect(verifier.verify(token, now: now.addingTimeInterval(60 + 30)) == .failure(.expired))
        let later = Self.hs.token(TokenMint.claims(now: now, extra: #""nbf":\#(Int(now.timeIntervalSince1970) + 120)"#))
        #expect(verifier.verify(later, now: now) == .failure(.notYetValid))
        #expect((try? verifier.verify(later, now: now.addingTimeInterval(100)).get()) != nil)
        let issuedLater = Self.hs.token(TokenMint.claims(now: now, extra: #""iat":\#(Int(now.timeIntervalSince1970) + 600)"#))
        #expect(verifier.verify(issuedLater, now: now) == .failure(.notYetValid))
        let noExpiry = Self.hs.token(#"{"sub":"c-0001"}"#)
        #expect(verifier.verify(noExpiry, now: now) == .failure(.invalid("the token has no exp")))
        #expect(TokenRefusal.expired.detail.contains("expired") && TokenRefusal.invalid("x").detail == "The bearer token is not valid.")
    }

    @Test func claims_subRequired_issuerAudienceAndRoleChecked() throws {
        #expect(
            try verifier(Self.hs).verify(Self.hs.token(TokenMint.claims(sub: nil, now: now)), now: now)
                == .failure(.invalid("the token has no sub")))
        let strict = try verifier(Self.hs, configuration: .init(issuer: "https://id.example", audience: "listservice"))
        let good = Self.hs.token(TokenMint.claims(now: now, extra: #""iss":"https://id.example","aud":["other","listservice"]"#))
        #expect((try? strict.verify(good, now: now).get())?.identity.role == .customer, "no role claim: a customer")
        let wrongIssuer = Self.hs.token(TokenMint.claims(now: now, extra: #""iss":"https://evil.example","aud":"listservice""#))
        #expect(strict.verify(wrongIssuer, now: now) == .failure(.invalid("iss is not https://id.example")))
        let wrongAudience = Self.hs.token(TokenMint.claims(now: now, extra: #""iss":"https://id.example","aud":"other""#))
        #expect(strict.verify(wrongAudience, now: now) == .failure(.invalid("aud does not include listservice")))

        let namedClaim = try verifier(Self.hs, configuration: .init(roleClaim: "https://example.com/role"))
        let admin = Self.hs.token(TokenMint.claims(now: now, extra: #""https://example.com/role":"admin","role":"customer""#))
        #expect((try? namedClaim.verify(admin, now: now).get())?.identity.role == .admin)
        for role in ["service", "root", "Staff"] {
            let token = Self.hs.token(TokenMint.claims(now: now, extra: #""role":"\#(role)""#))
            #expect(try verifier(Self.hs).verify(token, now: now) == .failure(.invalid("role \(role) is not customer, staff or admin")))
        }
    }

    @Test func attacks_none_algorithmConfusion_unknownKid_garbage() throws {
        let verifier = try verifier(Self.rs, Self.es)
        let claims = TokenMint.claims(now: now)
        // alg none with an empty signature.
        let none = Base64URL.encode(#"{"alg":"none","kid":"rs"}"#.utf8) + "." + Base64URL.encode(claims.utf8) + "."
        #expect(verifier.verify(none, now: now) == .failure(.invalid("alg none is not the key's RS256")))
        // The RSA public key's bytes as an HS256 secret, naming the RSA key.
        let confused = TokenMint(.hs256, keyID: "rs", secret: Self.rs.publicModulus)
        #expect(verifier.verify(confused.token(claims), now: now) == .failure(.invalid("alg HS256 is not the key's RS256")))
        // The ES256 key named by an RS256 token.
        #expect(
            verifier.verify(Self.rs.token(claims, header: #"{"alg":"RS256","kid":"es"}"#), now: now)
                == .failure(.invalid("alg RS256 is not the key's ES256")))
        #expect(verifier.verify(TokenMint(.rs256, keyID: "gone").token(claims), now: now) == .failure(.invalid("no key with kid gone")))
        #expect(
            verifier.verify(TokenMint(.rs256).token(claims), now: now) == .failure(.invalid("no key without a kid")),
            "two keys: a kid is needed")
        #expect(
            (try? self.verifier(Self.es).verify(TokenMint(.es256).token(claims, header: #"{"alg":"ES256"}"#), now: now).get()) == nil,
            "one key, another's signature")
        let critical = Self.rs.token(claims, header: #"{"alg":"RS256","kid":"rs","crit":["exp"]}"#)
        #expect(verifier.verify(critical, now: now) == .failure(.invalid("the header has crit extensions this service does not know")))
        for garbage in ["", "a.b", "a.b.c.d", "!!.e30.x", Self.rs.token(claims) + "=", "e30.e30.e30"] {
            guard case .failure(.invalid) = verifier.verify(garbage, now: now) else {
                Issue.record("\(garbage) verified")
                continue
            }
        }
    }

    @Test func oneKeyWithoutKid_verifiesTokensWithoutOne() throws {
        let single = TokenMint(.es256)
        let verifier = try verifier(single)
        #expect(
            (try? verifier.verify(single.token(TokenMint.claims(sub: "c-0007", now: now)), now: now).get())?.identity.subject == "c-0007")
    }

    @Test func keySet_refusesWhatItCannotUse_andSkipsEncryptionKeys() throws {
        let refusals: [(String, String)] = [
            (#"{"keys":[]}"#, "no key to verify signatures with"),
            (#"{"keys":[{"kty":"oct","k":"c2hvcnQ"}]}"#, "keys[0]: an HS256 secret must have at least 32 bytes, this one has 5"),
            (#"{"keys":[{"kty":"OKP","crv":"Ed25519","x":"AA"}]}"#, #"keys[0]: kty "OKP": only oct, RSA and EC are supported"#),
            (#"{"keys":[{"kty":"EC","crv":"P-384","x":"AA","y":"AA"}]}"#, "keys[0]: only the curve P-256 (ES256) is supported"),
            (
                #"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(String(repeating: "A", count: 43))","y":"\#(String(repeating: "A", count: 43))"}]}"#,
                "keys[0]: the EC key's numbers are not a public key"
            ),
            (#"{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"}]}"#, "keys[0]: an RSA key must have at least 2048 bits"),
            ("[1]", "a JWKS document is an object with an array \"keys\""),
        ]
        for (document, message) in refusals {
            #expect(throws: KeyError.self, "\(document)") { try KeySet(jwks: Array(document.utf8)) }
            do { _ = try KeySet(jwks: Array(document.utf8)) } catch { #expect(error.description == message) }
        }
        let mismatched = Self.hs.jwk.replacing(#""alg":"HS256""#, with: #""alg":"RS256""#)
        #expect(throws: KeyError.self) { try KeySet(jwks: Array(#"{"keys":[\#(mismatched)]}"#.utf8)) }
        let twice = #"{"keys":[\#(Self.hs.jwk),\#(Self.hs.jwk)]}"#
        #expect(throws: KeyError.self) { try KeySet(jwks: Array(twice.utf8)) }
        let withEncryption = #"{"keys":[{"kty":"RSA","use":"enc","n":"AQAB","e":"AQAB"},\#(Self.es.jwk)]}"#
        #expect(try KeySet(jwks: Array(withEncryption.utf8)).keys.map(\.algorithm) == [.es256])
    }
}
