/// Percent-decoding of request-target components (RFC 3986 §2.1) into UTF-8 strings.
enum PercentDecoding {
    /// Why bytes could not be decoded.
    enum Failure: Error {
        case malformedEscape, encodedNUL, notUTF8

        /// What the bytes hold, to end "The value of 'q' holds …".
        var phrase: String {
            switch self {
            case .malformedEscape: "a '%' not followed by two hex digits"
            case .encodedNUL: "an encoded NUL (%00)"
            case .notUTF8: "bytes that are not UTF-8 once decoded"
            }
        }
    }

    /// Decodes `bytes`; fails when an escape is malformed, the result is not UTF-8 or holds NUL.
    /// In a query, `+` stands for a space (HTML form encoding). In a path an encoded slash
    /// (`%2F`) stays encoded (`keepsEncodedSlash`): it is data within a segment, and decoding
    /// it would let `/orders%2Fo-1` route as `/orders/o-1`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool, keepsEncodedSlash: Bool = false) throws(Failure) -> String {
        let plus = UInt8(ascii: "+"), percent = UInt8(ascii: "%")
        if !bytes.contains(where: { $0 == percent || ($0 == plus && plusIsSpace) }) {
            return String(decoding: bytes, as: UTF8.self)  // the target holds ASCII only
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == percent {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { throw .malformedEscape }
                let value = high << 4 | low
                guard value != 0 else { throw .encodedNUL }
                if keepsEncodedSlash && value == UInt8(ascii: "/") {
                    decoded.append(contentsOf: [percent, UInt8(ascii: "2"), UInt8(ascii: "F")])
                } else {
                    decoded.append(value)
                }
                index += 3
            } else {
                decoded.append(byte == plus && plusIsSpace ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        guard let text = String(validating: decoded, as: UTF8.self) else { throw .notUTF8 }
        return text
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
