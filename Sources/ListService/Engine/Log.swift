import Glibc

/// Log lines of the core on stderr (HTTPLite keeps its own access log).
enum Log {
    static func line(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            _ = write(2, base, raw.count)
        }
    }
}
