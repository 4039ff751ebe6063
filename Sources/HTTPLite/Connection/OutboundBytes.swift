import Basics

/// What a connection has still to send: a buffer of bytes (heads, small bodies, stream chunks)
/// followed, at most once, by a large body sent from where it already is (a cached page's
/// bytes: no copy into the buffer, no buffer grown to its size and given back after), and
/// that by a piece shared with other bodies, sent from its file when it has one (`sendfile`).
struct OutboundBytes {
    /// Bodies at least this large are sent in place.
    static let inPlaceMinimum = 4096

    /// A stretch of a file still to send.
    struct FileRange: Equatable {
        let file: Int32
        let offset: Int
        let count: Int
    }

    private var buffer: [UInt8] = []
    private var bufferIndex = 0
    /// A body that follows `buffer`, sent from its own storage; empty when there is none.
    private var body: [UInt8] = []
    private var bodyIndex = 0
    /// Shared bytes that follow `body`, sent from their file; nil when there are none.
    private var shared: FileBackedBytes?
    private var sharedIndex = 0

    /// Bytes not yet sent.
    var count: Int { buffer.count - bufferIndex + body.count - bodyIndex + (shared.map { $0.bytes.count - sharedIndex } ?? 0) }

    /// Appends through `write`, after everything already waiting (a body or shared bytes
    /// waiting in place are moved into the buffer first, so bytes leave in the order they came).
    mutating func append(_ write: (inout [UInt8]) -> Void) {
        if bodyIndex < body.count { buffer.append(contentsOf: body[bodyIndex...]) }
        if let shared { buffer.append(contentsOf: shared.bytes[sharedIndex...]) }
        (body, bodyIndex, shared, sharedIndex) = ([], 0, nil, 0)
        write(&buffer)
    }

    /// Appends a response's body: in place when it is large and nothing follows it yet, else copied.
    mutating func append(body bytes: [UInt8]) {
        guard bytes.count >= Self.inPlaceMinimum, body.isEmpty, shared == nil else {
            return append { $0.append(contentsOf: bytes) }
        }
        body = bytes
    }

    /// Appends a body in two pieces: `lead` as `append(body:)` takes it, then `tail`, from its
    /// file when it has one, else in place (and `lead` copied).
    mutating func append(lead: [UInt8], tail: FileBackedBytes) {
        guard tail.file != nil else {
            append { $0.append(contentsOf: lead) }
            return append(body: tail.bytes)
        }
        append(body: lead)  // what waited in place before is in the buffer now
        (shared, sharedIndex) = (tail, 0)
    }

    /// Calls `send` with the unsent bytes: the buffer's, then the body's (either may be empty),
    /// then the stretch of a file that follows them (nil when none does).
    func withUnsent<T>(_ send: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, FileRange?) -> T) -> T {
        let range = shared.flatMap { shared in
            shared.file.map { FileRange(file: $0, offset: sharedIndex, count: shared.bytes.count - sharedIndex) }
        }
        return buffer.withUnsafeBytes { buffered in
            body.withUnsafeBytes { inPlace in
                send(
                    UnsafeRawBufferPointer(rebasing: buffered[bufferIndex...]), UnsafeRawBufferPointer(rebasing: inPlace[bodyIndex...]),
                    range)
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
        sharedIndex += count - fromBuffer - fromBody
        guard self.count == 0 else { return }
        (body, bodyIndex, shared, sharedIndex) = ([], 0, nil, 0)
        if keepsBuffer(buffer.capacity) { buffer.removeAll(keepingCapacity: true) } else { buffer = [] }
        bufferIndex = 0
    }
}
