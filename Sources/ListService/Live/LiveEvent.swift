/// Server-Sent Events framing for live lists: `event:`, `id:`, one line of JSON in `data:`.
enum LiveEvent {
    /// `event: <name>`, `id: <token>`, `data: <json>`, blank line.
    static func encode(_ name: StaticString, token: LiveToken, data: [UInt8]) -> [UInt8] {
        encode(name.description, id: token.text, data: data)  // JSONWriter escapes line breaks inside strings: one line
    }

    /// `event: <name>`, `id: <id>` (none: the client keeps the last id it had), `data: <json>`, blank line.
    static func encode(_ name: String, id: String?, data: some Collection<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + name.utf8.count + (id?.utf8.count ?? 0) + 24)
        bytes.append(contentsOf: "event: ".utf8)
        bytes.append(contentsOf: name.utf8)
        if let id {
            bytes.append(contentsOf: "\nid: ".utf8)
            bytes.append(contentsOf: id.utf8)
        }
        bytes.append(contentsOf: "\ndata: ".utf8)
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: [0x0A, 0x0A])
        return bytes
    }

    /// The events in `bytes` as a live list writes them (`event:`, `id:`, `data:`), in order;
    /// `retry:` lines and comments (heartbeats) are left out.
    static func frames(in bytes: [UInt8]) -> [(name: String, id: String, data: ArraySlice<UInt8>)] {
        var frames: [(name: String, id: String, data: ArraySlice<UInt8>)] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            var end = start
            while end < bytes.endIndex && !(bytes[end] == 0x0A && end + 1 < bytes.endIndex && bytes[end + 1] == 0x0A) { end += 1 }
            var name: String?, id = "", data: ArraySlice<UInt8>?
            for line in bytes[start..<end].split(separator: 0x0A) {
                if line.starts(with: "event: ".utf8) {
                    name = String(decoding: line.dropFirst(7), as: UTF8.self)
                } else if line.starts(with: "id: ".utf8) {
                    id = String(decoding: line.dropFirst(4), as: UTF8.self)
                } else if line.starts(with: "data: ".utf8) {
                    data = line.dropFirst(6)
                }
            }
            if let name, let data { frames.append((name, id, data)) }
            start = end + 2
        }
        return frames
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
