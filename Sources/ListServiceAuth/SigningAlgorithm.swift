/// The JWS algorithms (RFC 7518 §3.1) tokens may be signed with. Every other `alg`, `none`
/// among them, is refused; a key fixes its one algorithm, so a token cannot choose another.
package enum SigningAlgorithm: String, Sendable, CaseIterable {
    /// HMAC with SHA-256 over a shared secret (`kty: oct`).
    case hs256 = "HS256"
    /// RSASSA-PKCS1-v1_5 with SHA-256 (`kty: RSA`).
    case rs256 = "RS256"
    /// ECDSA on P-256 with SHA-256 (`kty: EC`, `crv: P-256`).
    case es256 = "ES256"
}
