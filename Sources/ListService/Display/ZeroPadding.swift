extension String {
    /// `value` in `radix`, with leading zeros to at least `width` digits (`7` → `"007"`).
    init(zeroPadded value: some BinaryInteger, width: Int, radix: Int = 10) {
        let digits = String(value, radix: radix)
        self = String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
    }
}
