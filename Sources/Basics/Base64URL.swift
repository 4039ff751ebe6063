import Foundation

/// base64url (RFC 4648 §5) without padding, as JSON Web Tokens and keys write their parts and
/// page cursors are written. The alphabet is mapped byte by byte onto standard base64, which
/// Foundation decodes: a token's parts are decoded on every verification.
public enum Base64URL {
    /// The bytes `text` (UTF-8) encodes; nil for a character outside the alphabet, padding, or
    /// a length no encoding has.
    public static func decode<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        var standard: [UInt8] = []
        standard.reserveCapacity(text.count + 3)
        for byte in text {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.append(byte)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        guard standard.count % 4 != 1 else { return nil }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard)).map { [UInt8]($0) }
    }

    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let standard = Data(bytes).base64EncodedData()
        var url: [UInt8] = []
        url.reserveCapacity(standard.count)
        for byte in standard {
            switch byte {
            case UInt8(ascii: "+"): url.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): url.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): break
            default: url.append(byte)
            }
        }
        return String(decoding: url, as: UTF8.self)
    }
}
