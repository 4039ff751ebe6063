import Basics

/// Where the core's log lines go (`level=… event=…`): stderr in the server, nowhere or a
/// test's buffer in tests, so a passing test run prints nothing. HTTPLite keeps its own log.
package struct ServiceLog: Sendable {
    private let emit: @Sendable (String) -> Void

    /// A log that hands each line (without its newline) to `emit`.
    package init(_ emit: @escaping @Sendable (String) -> Void) { self.emit = emit }

    /// One line per call on stderr, written with one system call.
    package static let standardError = ServiceLog(StandardError.writeLine)

    /// Drops every line.
    package static let discarding = ServiceLog { _ in }

    package func line(_ text: String) { emit(text) }
}
