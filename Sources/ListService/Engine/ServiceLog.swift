import Glibc

/// Where the core's log lines go (`level=… event=…`): stderr in the server, nowhere or a
/// test's buffer in tests, so a passing test run prints nothing. HTTPLite keeps its own log.
public struct ServiceLog: Sendable {
    private let emit: @Sendable (String) -> Void

    /// A log that hands each line (without its newline) to `emit`.
    public init(_ emit: @escaping @Sendable (String) -> Void) { self.emit = emit }

    /// One line per call on stderr, written with one system call.
    public static let standardError = ServiceLog { text in
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let written = write(2, base + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Drops every line.
    public static let discarding = ServiceLog { _ in }

    func line(_ text: String) { emit(text) }
}
