import Basics
import Glibc

/// Buffers one line per request and writes them to stderr once per loop iteration,
/// so logging costs one system call per batch rather than per request.
struct AccessLog {
    let isEnabled: Bool
    /// The lines recorded since the last flush.
    private(set) var buffer: [UInt8] = []
    private var second: time_t = -1
    private var timestamp: [UInt8] = []

    init(isEnabled: Bool) { self.isEnabled = isEnabled }

    /// `2026-11-21T06:40:00Z GET /orders 200 11413 0.120ms client=192.0.2.1 trace=4bf9…4736 span=00f0…02b7`:
    /// method, path, status, body bytes, duration, the client's address (behind a trusted
    /// proxy, the one it names), and the request's trace and this server's span in it (W3C
    /// Trace Context; none for an answer made before there was a request).
    mutating func record(
        method: String, path: String, status: Int, bodyBytes: Int, nanoseconds: Int64, client: String? = nil, trace: TraceContext?
    ) {
        guard isEnabled else { return }
        buffer.append(contentsOf: currentTimestamp())
        buffer.append(UInt8(ascii: " "))
        buffer.append(contentsOf: method.utf8)
        buffer.append(UInt8(ascii: " "))
        appendPath(path)
        buffer.append(contentsOf: " \(status) \(bodyBytes) ".utf8)
        let microseconds = nanoseconds / 1000
        buffer.append(contentsOf: "\(microseconds / 1000).\(String(microseconds % 1000 + 1000).dropFirst())ms".utf8)
        if let client {
            buffer.append(contentsOf: " client=".utf8)
            buffer.append(contentsOf: client.utf8)
        }
        if let trace { buffer.append(contentsOf: " trace=\(trace.traceID) span=\(trace.spanID)".utf8) }
        buffer.append(UInt8(ascii: "\n"))
    }

    /// The decoded path as a URL carries it: a space, a control character, `%` or a byte past
    /// ASCII percent-encoded, so the path stays one field of its line, cannot end the line or
    /// forge another, and reads back exactly.
    private mutating func appendPath(_ path: String) {
        func isPlain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") }
        func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10 }
        guard !path.utf8.allSatisfy(isPlain) else {
            buffer.append(contentsOf: path.utf8)
            return
        }
        for byte in path.utf8 {
            if isPlain(byte) {
                buffer.append(byte)
            } else {
                buffer.append(contentsOf: [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0x0F)])
            }
        }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        StandardError.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func currentTimestamp() -> [UInt8] {
        let now = time(nil)
        if now != second {
            second = now
            var clock = now
            var parts = tm()
            gmtime_r(&clock, &parts)
            func pad(_ value: Int32, _ width: Int) -> String {
                let digits = String(value)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            let text =
                "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
                + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))Z"
            timestamp = Array(text.utf8)
        }
        return timestamp
    }
}
