/// Appends CSV (RFC 4180): cells separated by `separator`, rows ended by CRLF, a cell quoted
/// when it holds the separator, a quote or a line break (quotes doubled inside).
struct CSVWriter {
    private(set) var bytes: [UInt8] = []
    let separator: UInt8
    /// Whether a text cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or
    /// a carriage return first) is written with a leading apostrophe, as OWASP advises for
    /// files meant for spreadsheets. Numbers are written as they are (`-5`).
    let guardsFormulas: Bool
    private var isRowStart = true

    init(separator: UInt8, guardsFormulas: Bool, reservingCapacity capacity: Int) {
        self.separator = separator
        self.guardsFormulas = guardsFormulas
        bytes.reserveCapacity(capacity)
    }

    /// Appends bytes before any row (a byte order mark).
    mutating func raw(_ prefix: [UInt8]) { bytes.append(contentsOf: prefix) }

    /// One cell of text (UTF-8).
    mutating func cell(_ text: some Collection<UInt8>, isText: Bool = true) {
        if !isRowStart { bytes.append(separator) }
        isRowStart = false
        let guarded = isText && guardsFormulas && text.first.map(Self.startsFormula) == true
        guard guarded || text.contains(where: { $0 == separator || $0 == Self.quote || $0 == 0x0A || $0 == 0x0D }) else {
            return bytes.append(contentsOf: text)
        }
        bytes.append(Self.quote)
        if guarded { bytes.append(UInt8(ascii: "'")) }
        for byte in text {
            if byte == Self.quote { bytes.append(Self.quote) }
            bytes.append(byte)
        }
        bytes.append(Self.quote)
    }

    mutating func cell(_ text: String) { cell(text.utf8) }

    /// Ends the row (CRLF, as RFC 4180 writes it).
    mutating func endRow() {
        bytes.append(0x0D)
        bytes.append(0x0A)
        isRowStart = true
    }

    /// Takes what was written so far, leaving the writer empty.
    mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    private static let quote = UInt8(ascii: "\"")

    private static func startsFormula(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
            || byte == 0x09 || byte == 0x0D
    }
}
