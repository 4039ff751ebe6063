/// Character classes of RFC 9110 §5.6 used by the parser.
enum HTTPSyntax {
    static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), colon = UInt8(ascii: ":")

    /// tchar: the characters of a token (method, header name, coding): every header name of
    /// every request and response is checked with it. `!#$%&'*+-.`, digits, letters, `^_`|~`
    /// (`HTTPSyntaxTests` holds the set to RFC 9110's list).
    @inline(__always)
    static func isTokenCharacter(_ byte: UInt8) -> Bool { tokenCharacters.contains(byte) }

    /// Whether `bytes` is a token: not empty, and every byte a token character; a word at a
    /// time while the bytes are letters, digits or `-` (nearly every header name).
    static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.isEmpty && allBytes(of: bytes, byWord: { isAlphanumericOrDash($0) }, byByte: { isTokenCharacter($0) })
    }

    /// Whether every byte of `bytes` passes `byByte`: eight bytes at a time while `byWord`
    /// vouches for all eight, the last eight read over the ones before (four and four under
    /// eight bytes), one by one from the first word it does not vouch for. Inlined, so each
    /// check is a loop of its own (a test passed in and called per byte is five times slower).
    @inline(__always)
    private static func allBytes(
        of bytes: UnsafeBufferPointer<UInt8>, byWord: (UInt64) -> Bool, byByte: (UInt8) -> Bool
    ) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        if bytes.count >= 8 {
            while offset + 8 <= bytes.count, byWord(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) {
                offset += 8
            }
            if offset + 8 > bytes.count, byWord(raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)) {
                return true
            }
        } else if bytes.count >= 4, byWord(halves(raw, count: bytes.count)) {
            return true
        }
        for byte in bytes[offset...] where !byByte(byte) { return false }
        return true
    }

    /// The first four and the last four of `count` bytes (4 to 7, so the two may overlap) as
    /// one word: a short name or value in one look.
    @inline(__always)
    private static func halves(_ raw: UnsafeRawPointer, count: Int) -> UInt64 {
        UInt64(raw.loadUnaligned(as: UInt32.self)) | UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)) << 32
    }

    /// Whether each byte of `word` is an ASCII letter, a digit or `-`. With every byte below
    /// 0x80, adding at most 0x80 to one never carries into the next, so a byte's high bit
    /// afterwards says whether it reached the bound added against.
    @inline(__always)
    private static func isAlphanumericOrDash(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs = ones &* 0x80
        guard word & highs == 0 else { return false }
        let folded = word | (ones &* 0x20)  // A–Z onto a–z; nothing else lands in a–z
        let letters = (folded &+ ones &* (0x80 - 0x61)) & ~(folded &+ ones &* (0x7F - 0x7A))
        let digits = (word &+ ones &* (0x80 - 0x30)) & ~(word &+ ones &* (0x7F - 0x39))
        let fromDash = word ^ (ones &* 0x2D)
        let dashes = ~((fromDash &+ ones &* 0x7F) | fromDash)  // high bit where the byte is `-`
        return (letters | digits | dashes) & highs == highs
    }

    private static let tokenCharacters = ASCIISet(below64: 0x03FF_6CFA_0000_0000, from64: 0x57FF_FFFF_C7FF_FFFE)

    /// field-vchar, SP or HTAB: what a header value may hold (obs-text included).
    static func isFieldValueCharacter(_ byte: UInt8) -> Bool {
        byte == tab || byte == space || (byte > 0x20 && byte != 0x7F)
    }

    /// Whether every byte of `value` is a field value character; a word at a time where no
    /// byte is below 0x20 or 0x7F (a tab, which is allowed, and anything else is then decided
    /// byte by byte), so a value of any length (a bearer token, cookies, `gzip`) is checked quickly.
    static func isFieldValue(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        allBytes(of: value, byWord: { isVisibleOrSpace($0) }, byByte: { isFieldValueCharacter($0) })
    }

    /// Whether no byte of `word` is below 0x20 or equal to 0x7F (Bit Twiddling Hacks'
    /// hasless and haszero, exact about whether there is one).
    @inline(__always)
    private static func isVisibleOrSpace(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x20) & ~word & highs
        let delete = ((word ^ (ones &* 0x7F)) &- ones) & ~(word ^ (ones &* 0x7F)) & highs
        return below | delete == 0
    }

    /// Whether `bytes` holds only what a request-target may hold unencoded: visible ASCII.
    static func isTarget(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte <= 0x20 || byte >= 0x7F { return false }
        return true
    }

    static func isOWS(_ byte: UInt8) -> Bool { byte == space || byte == tab }
}
