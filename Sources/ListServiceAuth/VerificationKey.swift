import CCrypto

/// One key a token's signature is checked against, held by OpenSSL's libcrypto: a shared
/// secret for HS256, or an RSA or P-256 public key. The key decides the algorithm.
package final class VerificationKey: @unchecked Sendable {
    // Unchecked: `publicKey` is never changed after init, and OpenSSL 3 allows one EVP_PKEY to
    // verify on many threads at once (each verification has its own digest context).
    package let algorithm: SigningAlgorithm
    /// The key's `kid`, which a token names to pick it.
    package let id: String?
    private let secret: [UInt8]
    private let publicKey: OpaquePointer?

    /// The smallest RSA modulus accepted (RFC 7518 §3.3: 2048 bits or larger).
    static let minimumRSABits: Int32 = 2048

    /// An HS256 secret (RFC 7518 §3.2: at least 256 bits).
    package init(secret: [UInt8], id: String?) throws(KeyError) {
        guard secret.count >= 32 else { throw KeyError("an HS256 secret must have at least 32 bytes, this one has \(secret.count)") }
        algorithm = .hs256
        self.id = id
        self.secret = secret
        publicKey = nil
    }

    /// An RSA public key from its modulus and exponent (big-endian bytes).
    package init(rsaModulus modulus: [UInt8], exponent: [UInt8], id: String?) throws(KeyError) {
        guard !modulus.isEmpty, !exponent.isEmpty, let key = ccrypto_rsa_public_key(modulus, modulus.count, exponent, exponent.count) else {
            throw KeyError("the RSA key's numbers are not a public key")
        }
        guard EVP_PKEY_get_bits(key) >= Self.minimumRSABits else {
            EVP_PKEY_free(key)
            throw KeyError("an RSA key must have at least \(Self.minimumRSABits) bits")
        }
        algorithm = .rs256
        self.id = id
        secret = []
        publicKey = key
    }

    /// A P-256 public key from its coordinates (32 big-endian bytes each).
    package init(p256X x: [UInt8], y: [UInt8], id: String?) throws(KeyError) {
        guard x.count == 32, y.count == 32 else { throw KeyError("a P-256 key's x and y have 32 bytes each") }
        let point = [0x04] + x + y  // the uncompressed point (SEC 1 §2.3.3)
        guard let key = ccrypto_p256_public_key(point, point.count) else { throw KeyError("the EC key's numbers are not a public key") }
        algorithm = .es256
        self.id = id
        secret = []
        publicKey = key
    }

    deinit { EVP_PKEY_free(publicKey) }

    /// Whether `signature` is this key's signature of `message`.
    package func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        switch algorithm {
        case .hs256:
            var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            guard HMAC(EVP_sha256(), secret, Int32(secret.count), message, message.count, &mac, &length) != nil,
                Int(length) == signature.count
            else { return false }
            return CRYPTO_memcmp(mac, signature, signature.count) == 0
        case .rs256:
            return digestVerify(signature, message)
        case .es256:
            // JWS writes R and S as 32 bytes each; OpenSSL verifies their DER encoding.
            guard signature.count == 64, let der = Self.derSignature(r: signature[..<32], s: signature[32...]) else { return false }
            return digestVerify(der, message)
        }
    }

    private func digestVerify(_ signature: [UInt8], _ message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, publicKey) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }

    /// An ECDSA signature's DER encoding (the form OpenSSL verifies) from its two numbers.
    private static func derSignature(r: ArraySlice<UInt8>, s: ArraySlice<UInt8>) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let rNumber = r.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        let sNumber = s.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        guard let rNumber, let sNumber, ECDSA_SIG_set0(signature, rNumber, sNumber) == 1 else {
            BN_free(rNumber)
            BN_free(sNumber)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }
}

/// Why a key could not be made.
package struct KeyError: Error, CustomStringConvertible, Sendable {
    package let description: String

    init(_ description: String) { self.description = description }
}
