/// What a connection has still to send: a buffer of bytes (heads, small bodies, stream chunks)
/// followed, at most once, by a large body sent from where it already is (a cached page's
/// bytes: no copy into the buffer, no buffer grown to its size and given back after).
struct OutboundBytes {
    /// Bodies at least this large are sent in place.
    static let inPlaceMinimum = 4096

    private var buffer: [UInt8] = []
    private var bufferIndex = 0
    /// A body that follows `buffer`, sent from its own storage; empty when there is none.
    private var body: [UInt8] = []
    private var bodyIndex = 0

    /// Bytes not yet sent.
    var count: Int { buffer.count - bufferIndex + body.count - bodyIndex }

    /// Appends through `write`, after everything already waiting (a body waiting in place is
    /// moved into the buffer first, so bytes leave in the order they came).
    mutating func append(_ write: (inout [UInt8]) -> Void) {
        if bodyIndex < body.count { buffer.append(contentsOf: body[bodyIndex...]) }
        (body, bodyIndex) = ([], 0)
        write(&buffer)
    }

    /// Appends a response's body: in place when it is large and nothing follows it yet, else copied.
    mutating func append(body bytes: [UInt8]) {
        guard bytes.count >= Self.inPlaceMinimum, body.isEmpty else { return append { $0.append(contentsOf: bytes) } }
        body = bytes
    }

    /// Appends a body in pieces: all but the last copied, the last as `append(body:)` takes it
    /// (the large shared piece goes last).
    mutating func append(parts: [[UInt8]]) {
        guard let last = parts.last else { return }
        append { buffer in
            for part in parts.dropLast() { buffer.append(contentsOf: part) }
        }
        append(body: last)
    }

    /// Calls `send` with the unsent bytes: the buffer's, then the body's (either may be empty).
    func withUnsent<T>(_ send: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> T) -> T {
        buffer.withUnsafeBytes { buffered in
            body.withUnsafeBytes { inPlace in
                send(UnsafeRawBufferPointer(rebasing: buffered[bufferIndex...]), UnsafeRawBufferPointer(rebasing: inPlace[bodyIndex...]))
            }
        }
    }

    /// `count` bytes were sent. Once all are, the body is let go, and the buffer too when
    /// `keepsBuffer` is false (an idle stream, a buffer grown large): idle connections hold little.
    mutating func sent(_ count: Int, keepsBuffer: (_ capacity: Int) -> Bool) {
        let fromBuffer = min(count, buffer.count - bufferIndex)
        bufferIndex += fromBuffer
        bodyIndex += count - fromBuffer
        guard self.count == 0 else { return }
        (body, bodyIndex) = ([], 0)
        if keepsBuffer(buffer.capacity) { buffer.removeAll(keepingCapacity: true) } else { buffer = [] }
        bufferIndex = 0
    }
}
