import Glibc

/// Writing to stderr (Glibc's `stderr` global is not usable in Swift 6 mode).
public enum StandardError {
    /// Writes `line` and a newline with one system call, so concurrent lines do not interleave.
    public static func writeLine(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        write(bytes)
    }

    /// Writes `bytes` whole, retrying after interruptions and short writes.
    public static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let written = Glibc.write(2, base + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
