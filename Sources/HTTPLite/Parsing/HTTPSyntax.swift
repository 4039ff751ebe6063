/// Character classes of RFC 9110 §5.6 used by the parser.
enum HTTPSyntax {
    static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), colon = UInt8(ascii: ":")

    /// tchar: the characters of a token (method, header name, coding): every header name of
    /// every request and response is checked with it. `!#$%&'*+-.`, digits, letters, `^_`|~`
    /// (`HTTPSyntaxTests` holds the set to RFC 9110's list).
    @inline(__always)
    static func isTokenCharacter(_ byte: UInt8) -> Bool { tokenCharacters.contains(byte) }

    /// Whether `bytes` is a token: not empty, and every byte a token character. A loop of its
    /// own, not `allSatisfy` with the test passed in (a call per byte there: five times slower).
    static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        for byte in bytes where !isTokenCharacter(byte) { return false }
        return true
    }

    private static let tokenCharacters = ASCIISet(below64: 0x03FF_6CFA_0000_0000, from64: 0x57FF_FFFF_C7FF_FFFE)

    /// field-vchar, SP or HTAB: what a header value may hold (obs-text included).
    static func isFieldValueCharacter(_ byte: UInt8) -> Bool {
        byte == tab || byte == space || (byte > 0x20 && byte != 0x7F)
    }

    /// Whether every byte of `value` is a field value character: eight bytes at a time where
    /// no byte is below 0x20 or 0x7F (a tab, which is allowed, and anything else is then
    /// decided byte by byte), so a long header (a bearer token, cookies) is checked quickly.
    static func isFieldValue(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = value.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var offset = 0
        while offset + 8 <= value.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
            // A byte below 0x20, or equal to 0x7F (Bit Twiddling Hacks' hasless and haszero):
            // exact about whether there is one, so a clean word needs no other look.
            let below = (word &- ones &* 0x20) & ~word & highs
            let delete = ((word ^ (ones &* 0x7F)) &- ones) & ~(word ^ (ones &* 0x7F)) & highs
            if below | delete != 0 { break }
            offset += 8
        }
        for byte in value[offset...] where !isFieldValueCharacter(byte) { return false }
        return true
    }

    /// Whether `bytes` holds only what a request-target may hold unencoded: visible ASCII.
    static func isTarget(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte <= 0x20 || byte >= 0x7F { return false }
        return true
    }

    static func isOWS(_ byte: UInt8) -> Bool { byte == space || byte == tab }
}
