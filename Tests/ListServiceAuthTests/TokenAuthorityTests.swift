import Foundation
import ListService
import Testing

@testable import ListServiceAuth

/// The cache in front of verification, and key rotation.
@Suite struct TokenAuthorityTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aVerifiedTokenIsCachedUntilItsExpiry_andRotationForgetsIt() throws {
        let old = TokenMint(.rs256, keyID: "old"), new = TokenMint(.rs256, keyID: "new")
        let authority = TokenAuthority(verifier: TokenVerifier(keys: try KeySet(jwks: TokenMint.jwks(old))))
        let token = old.token(TokenMint.claims(now: now, expiresIn: 60))
        #expect((try? authority.verify(token, now: now).get())?.identity.subject == "c-0001")
        #expect(authority.cachedCount == 1)
        #expect((try? authority.verify(token, now: now.addingTimeInterval(10)).get()) != nil)
        #expect(authority.verify(token, now: now.addingTimeInterval(90)) == .failure(.expired), "a cached token still expires")

        authority.replaceKeys(try KeySet(jwks: TokenMint.jwks(new)))
        #expect(authority.cachedCount == 0)
        #expect(authority.verify(token, now: now) == .failure(.invalid("no key with kid old")), "the removed key's tokens stop at once")
        #expect((try? authority.verify(new.token(TokenMint.claims(now: now)), now: now).get()) != nil)
    }

    @Test func theCacheStaysBounded_andRefusalsAreNotCached() throws {
        let mint = TokenMint(.hs256)
        let authority = TokenAuthority(verifier: TokenVerifier(keys: try KeySet(jwks: TokenMint.jwks(mint))), capacity: 100)
        for index in 0..<1_000 {
            _ = authority.verify(mint.token(TokenMint.claims(sub: "c-\(index)", now: now)), now: now)
            #expect(authority.cachedCount <= 100)
        }
        _ = authority.verify(mint.token(TokenMint.claims(sub: "c-x", now: now, expiresIn: -100)), now: now)
        #expect(authority.cachedCount <= 100)
    }

    @Test func signer_makesTokensItsKeyVerifies() throws {
        let signer = try #require(TokenSigner(keyID: "demo"))
        let authority = TokenAuthority(verifier: TokenVerifier(keys: KeySet(keys: [signer.verificationKey])))
        let token = signer.token(for: Identity(subject: "c-0003", role: .staff), now: now, lifetime: 3600)
        #expect(try authority.verify(token, now: now).get().identity == Identity(subject: "c-0003", role: .staff))
        #expect(authority.verify(token, now: now.addingTimeInterval(3700)) == .failure(.expired))
    }
}
