/// Server-Sent Events framing for live lists: `event:`, `id:`, one line of JSON in `data:`.
enum LiveEvent {
    /// `event: <name>`, `id: <token>`, `data: <json>`, blank line.
    static func encode(_ name: StaticString, token: LiveToken, data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + 64)
        bytes.append(contentsOf: Array("event: \(name)\nid: \(token.text)\ndata: ".utf8))
        bytes.append(contentsOf: data)  // JSONWriter escapes line breaks inside strings: one line
        bytes.append(contentsOf: [0x0A, 0x0A])
        return bytes
    }

    /// `retry: <ms>` on its own: how long a client waits before reconnecting.
    static func retry(milliseconds: Int) -> [UInt8] { Array("retry: \(milliseconds)\n\n".utf8) }

    /// A comment line that keeps proxies and clients from timing the stream out.
    static let heartbeat: [UInt8] = Array(":\n\n".utf8)
}

/// An event's id: the server's epoch (so tokens from before a restart are recognised) and
/// the list version the event brings the client to.
package struct LiveToken: Equatable, Sendable {
    package let epoch: String
    package let v: UInt64

    package var text: String { "\(epoch)-\(v)" }

    init(epoch: String, v: UInt64) {
        self.epoch = epoch
        self.v = v
    }

    /// Parses `<epoch>-<v>`; nil for anything else.
    package init?(_ text: String) {
        guard let dash = text.lastIndex(of: "-"), let v = UInt64(text[text.index(after: dash)...]) else { return nil }
        let epoch = String(text[..<dash])
        guard !epoch.isEmpty, epoch.utf8.count <= 32 else { return nil }
        self.init(epoch: epoch, v: v)
    }
}
