/// Character classes of RFC 9110 §5.6 used by the parser.
enum HTTPSyntax {
    static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), colon = UInt8(ascii: ":")

    /// tchar: the characters of a token (method, header name, coding).
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// field-vchar, SP or HTAB: what a header value may hold (obs-text included).
    static func isFieldValueCharacter(_ byte: UInt8) -> Bool {
        byte == tab || byte == space || (byte > 0x20 && byte != 0x7F)
    }

    /// What a request-target may hold unencoded: visible ASCII.
    static func isTargetCharacter(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }

    static func isOWS(_ byte: UInt8) -> Bool { byte == space || byte == tab }
}
