import CCrypto

/// SHA-256 (libcrypto): what tells one request from another under an `Idempotency-Key`.
package enum SHA256 {
    /// The digest of `parts`, each preceded by its length (so no two lists of parts give the
    /// same input), in lowercase hex.
    package static func hex(of parts: [[UInt8]]) -> String {
        guard let context = EVP_MD_CTX_new() else { fatalError("libcrypto cannot allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        for part in parts {
            var length = UInt64(part.count).littleEndian
            withUnsafeBytes(of: &length) { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
            part.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var size: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &size)
        let hexDigits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(Int(size) * 2)
        for byte in digest.prefix(Int(size)) {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
