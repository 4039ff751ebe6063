/// The syntax of a `Host` field value and of an absolute-form target's authority (RFC 9110
/// §7.2, RFC 3986 §3.2.2): `uri-host [ ":" port ]`, a registered name, IPv4 address or
/// bracketed IP literal, and a port of at most five digits up to 65535. No user information.
enum HostSyntax {
    static func isValid(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if value.first == UInt8(ascii: "[") {
            guard let close = value.firstIndex(of: UInt8(ascii: "]")), close > 1,
                value[1..<close].allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { return false }
            index = close + 1
        } else {
            while index < value.count, isNameCharacter(value[index]) { index += 1 }
        }
        guard index < value.count else { return true }
        guard value[index] == UInt8(ascii: ":") else { return false }
        let port = value[(index + 1)...]
        guard port.count <= 5, port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return false }
        return port.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 65535
    }

    /// `unreserved / pct-encoded / sub-delims` of a registered name: letters, digits and
    /// `-._~%!$&'()*+,;=` (`HTTPSyntaxTests` holds the set to that list).
    private static func isNameCharacter(_ byte: UInt8) -> Bool { nameCharacters.contains(byte) }

    private static let nameCharacters = ASCIISet(below64: 0x2BFF_7FF2_0000_0000, from64: 0x47FF_FFFE_87FF_FFFE)

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }
}
