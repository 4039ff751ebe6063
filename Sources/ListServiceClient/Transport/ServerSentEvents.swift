import Foundation

/// One event of a `text/event-stream`: its name (`message` when none is given), `data`
/// (lines joined with `\n`), the `id:` it carried and a `retry:` hint in milliseconds.
public struct ServerSentEvent: Sendable, Equatable {
    public var name: String
    public var data: String
    public var id: String?
    public var retry: Int?
}

/// Splits a stream's bytes into events as the HTML standard's event-stream parser does:
/// lines end in LF, CRLF or CR; a blank line ends an event; lines starting with `:` are
/// comments; a field without a colon has an empty value; one leading space is dropped.
struct ServerSentEventParser {
    private var line: [UInt8] = []
    private var sawCarriageReturn = false
    private var name = ""
    private var data: [String] = []
    private var hasData = false
    private var id: String?
    private var retry: Int?

    /// The events that `bytes` complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if sawCarriageReturn {
                sawCarriageReturn = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\n"):
                if let event = endLine() { events.append(event) }
            case UInt8(ascii: "\r"):
                sawCarriageReturn = true
                if let event = endLine() { events.append(event) }
            default:
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "event": name = String(value)
        case "data":
            data.append(String(value))
            hasData = true
        case "id" where !value.contains("\0"): id = String(value)
        case "retry": if let milliseconds = Int(value), milliseconds >= 0 { retry = milliseconds }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            name = ""
            data = []
            hasData = false
            retry = nil
        }
        // A `retry:` alone still tells the client how long to wait; it is handed on as an event
        // with no data (the standard keeps it as the stream's reconnection time).
        guard hasData || retry != nil else { return nil }
        return ServerSentEvent(name: name.isEmpty ? "message" : name, data: data.joined(separator: "\n"), id: id, retry: retry)
    }
}
