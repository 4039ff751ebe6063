import Basics
import CCrypto
import Foundation

@testable import ListServiceAuth

/// Real tokens for tests, signed with OpenSSL: an HS256 secret, or an RSA (2048-bit) or P-256
/// key pair made for the test, with the JWKS entry that verifies them.
final class TokenMint: @unchecked Sendable {
    // Unchecked: the key is made in init and only read after; OpenSSL signs with it on any thread.
    enum Kind { case hs256, rs256, es256 }

    let kind: Kind
    let keyID: String?
    private let secret: [UInt8]
    private let keyPair: OpaquePointer?

    init(_ kind: Kind, keyID: String? = nil, secret: [UInt8] = Array("a-test-secret-of-thirty-two-bytes!!".utf8)) {
        self.kind = kind
        self.keyID = keyID
        self.secret = secret
        switch kind {
        case .hs256: keyPair = nil
        case .rs256: keyPair = Self.generate("RSA") { EVP_PKEY_CTX_set_rsa_keygen_bits($0, 2048) }
        case .es256: keyPair = Self.generate("EC") { EVP_PKEY_CTX_set_group_name($0, "P-256") }
        }
    }

    deinit { EVP_PKEY_free(keyPair) }

    var algorithm: String {
        switch kind {
        case .hs256: "HS256"
        case .rs256: "RS256"
        case .es256: "ES256"
        }
    }

    /// The JWKS entry (a JSON object's text) that verifies this mint's tokens.
    var jwk: String {
        let kid = keyID.map { #","kid":"\#($0)""# } ?? ""
        switch kind {
        case .hs256: return #"{"kty":"oct","k":"\#(Base64URL.encode(secret))","alg":"HS256"\#(kid)}"#
        case .rs256:
            return #"{"kty":"RSA","n":"\#(Base64URL.encode(number("n")))","e":"\#(Base64URL.encode(number("e")))","alg":"RS256"\#(kid)}"#
        case .es256:
            let x = number("qx"), y = number("qy")
            let pad = { (bytes: [UInt8]) in [UInt8](repeating: 0, count: 32 - bytes.count) + bytes }
            return #"{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode(pad(x)))","y":"\#(Base64URL.encode(pad(y)))"\#(kid)}"#
        }
    }

    /// The RSA modulus's bytes (for the algorithm-confusion test: a public key used as an HMAC secret).
    var publicModulus: [UInt8] { number("n") }

    static func jwks(_ mints: TokenMint...) -> [UInt8] { Array(#"{"keys":[\#(mints.map(\.jwk).joined(separator: ","))]}"#.utf8) }

    /// A token with `claims` (a JSON object's text), its header naming `alg` (this mint's by
    /// default) and the mint's `kid`.
    func token(_ claims: String, alg: String? = nil, header: String? = nil) -> String {
        let kid = keyID.map { #","kid":"\#($0)""# } ?? ""
        let head = header ?? #"{"alg":"\#(alg ?? algorithm)","typ":"JWT"\#(kid)}"#
        let input = Base64URL.encode(head.utf8) + "." + Base64URL.encode(claims.utf8)
        return input + "." + Base64URL.encode(sign(Array(input.utf8)))
    }

    /// Claims for `sub` valid for an hour around `now`, plus `extra` members.
    static func claims(sub: String? = "c-0001", now: Date = Date(), expiresIn: TimeInterval = 3600, extra: String = "") -> String {
        let subject = sub.map { #""sub":"\#($0)","# } ?? ""
        return #"{\#(subject)"exp":\#(Int(now.timeIntervalSince1970 + expiresIn))\#(extra.isEmpty ? "" : ",")\#(extra)}"#
    }

    private func sign(_ message: [UInt8]) -> [UInt8] {
        switch kind {
        case .hs256:
            var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            _ = HMAC(EVP_sha256(), secret, Int32(secret.count), message, message.count, &mac, &length)
            return Array(mac.prefix(Int(length)))
        case .rs256: return digestSign(message)
        case .es256:
            // OpenSSL signs in DER; JWS wants R and S as 32 bytes each.
            let der = digestSign(message)
            var cursor: UnsafePointer<UInt8>? = der.withUnsafeBufferPointer { UnsafePointer($0.baseAddress) }
            let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                cursor = buffer.baseAddress
                return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
            }
            defer { ECDSA_SIG_free(signature) }
            var r: OpaquePointer?, s: OpaquePointer?
            ECDSA_SIG_get0(signature, &r, &s)
            var out = [UInt8](repeating: 0, count: 64)
            _ = BN_bn2binpad(r, &out, 32)
            out.withUnsafeMutableBufferPointer { _ = BN_bn2binpad(s, $0.baseAddress! + 32, 32) }
            return out
        }
    }

    private func digestSign(_ message: [UInt8]) -> [UInt8] {
        let context = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(context) }
        EVP_DigestSignInit(context, nil, EVP_sha256(), nil, keyPair)
        var length = 0
        EVP_DigestSign(context, nil, &length, message, message.count)
        var signature = [UInt8](repeating: 0, count: length)
        EVP_DigestSign(context, &signature, &length, message, message.count)
        return Array(signature.prefix(length))
    }

    private func number(_ name: String) -> [UInt8] {
        var number: OpaquePointer?
        EVP_PKEY_get_bn_param(keyPair, name, &number)
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
        BN_bn2bin(number, &bytes)
        return bytes
    }

    private static func generate(_ type: String, _ configure: (OpaquePointer?) -> Int32) -> OpaquePointer? {
        let context = EVP_PKEY_CTX_new_from_name(nil, type, nil)
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, configure(context) == 1, EVP_PKEY_generate(context, &key) == 1 else { return nil }
        return key
    }
}
