/// What a connection has still to send: a buffer of bytes (heads, small bodies, stream chunks)
/// followed, at most once, by a large body sent from where it already is (a cached page's
/// bytes: no copy into the buffer, no buffer grown to its size and given back after), in one or
/// two pieces (a page's own bytes, then the end it shares with other pages).
struct OutboundBytes {
    /// Bodies at least this large are sent in place.
    static let inPlaceMinimum = 4096

    private var buffer: [UInt8] = []
    private var bufferIndex = 0
    /// A body that follows `buffer`, sent from its own storage; empty when there is none.
    private var body: [UInt8] = []
    private var bodyIndex = 0
    /// The body's second piece, after `body`, also sent from its own storage; empty when none.
    private var tail: [UInt8] = []
    private var tailIndex = 0

    /// Bytes not yet sent.
    var count: Int { buffer.count - bufferIndex + body.count - bodyIndex + tail.count - tailIndex }

    /// Appends through `write`, after everything already waiting (a body waiting in place is
    /// moved into the buffer first, so bytes leave in the order they came).
    mutating func append(_ write: (inout [UInt8]) -> Void) {
        if bodyIndex < body.count { buffer.append(contentsOf: body[bodyIndex...]) }
        if tailIndex < tail.count { buffer.append(contentsOf: tail[tailIndex...]) }
        (body, bodyIndex, tail, tailIndex) = ([], 0, [], 0)
        write(&buffer)
    }

    /// Appends a response's body, or its next piece: in place when it is large and no more
    /// than one piece waits in place, else copied.
    mutating func append(body bytes: [UInt8]) {
        guard bytes.count >= Self.inPlaceMinimum, tail.isEmpty else { return append { $0.append(contentsOf: bytes) } }
        if body.isEmpty { body = bytes } else { tail = bytes }
    }

    /// Appends bytes other connections send too (a broadcast event): in place whenever one of
    /// the two places is free, whatever their size, so a thousand streams do not each copy the
    /// event into a buffer of their own.
    mutating func append(shared bytes: [UInt8]) {
        guard tail.isEmpty else { return append { $0.append(contentsOf: bytes) } }
        if body.isEmpty { body = bytes } else { tail = bytes }
    }

    /// Appends a fixed body (`.bytes` or `.parts`); a body of another kind has nothing to append.
    mutating func append(fixed body: ResponseBody) {
        switch body {
        case .bytes(let bytes): append(body: bytes)
        case .parts(let parts): append(parts: parts)
        case .stream, .download, .deferred: break
        }
    }

    /// Appends a body in pieces, each as `append(body:)` takes it: a page's own bytes and the
    /// large end it shares are both sent where they are.
    mutating func append(parts: [[UInt8]]) {
        for part in parts { append(body: part) }
    }

    /// Calls `send` with the unsent bytes: the buffer's, then the body's two pieces (any may be empty).
    func withUnsent<T>(_ send: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> T) -> T {
        buffer.withUnsafeBytes { buffered in
            body.withUnsafeBytes { inPlace in
                tail.withUnsafeBytes { tailInPlace in
                    send(
                        UnsafeRawBufferPointer(rebasing: buffered[bufferIndex...]), UnsafeRawBufferPointer(rebasing: inPlace[bodyIndex...]),
                        UnsafeRawBufferPointer(rebasing: tailInPlace[tailIndex...]))
                }
            }
        }
    }

    /// `count` bytes were sent. Once all are, the body is let go, and the buffer too when
    /// `keepsBuffer` is false (an idle stream, a buffer grown large): idle connections hold little.
    mutating func sent(_ count: Int, keepsBuffer: (_ capacity: Int) -> Bool) {
        let fromBuffer = min(count, buffer.count - bufferIndex)
        bufferIndex += fromBuffer
        let fromBody = min(count - fromBuffer, body.count - bodyIndex)
        bodyIndex += fromBody
        tailIndex += count - fromBuffer - fromBody
        guard self.count == 0 else { return }
        (body, bodyIndex, tail, tailIndex) = ([], 0, [], 0)
        if keepsBuffer(buffer.capacity) { buffer.removeAll(keepingCapacity: true) } else { buffer = [] }
        bufferIndex = 0
    }
}
