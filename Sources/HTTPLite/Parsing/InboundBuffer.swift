/// Bytes received on a connection and not yet consumed by the parser.
struct InboundBuffer {
    private(set) var bytes: [UInt8] = []
    private(set) var readerIndex = 0

    var readableCount: Int { bytes.count - readerIndex }
    var isEmpty: Bool { readerIndex == bytes.count }

    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: chunk)
    }

    mutating func consume(_ count: Int) {
        precondition(count <= readableCount)
        readerIndex += count
    }

    /// Capacity kept for the next requests once every byte is consumed; a larger buffer (many
    /// pipelined requests, a chunked upload) is let go rather than held by an idle connection.
    static let keptCapacity = 64 * 1024

    /// Drops consumed bytes: free when all are consumed, amortised otherwise.
    mutating func compact() {
        if readerIndex == bytes.count {
            if bytes.capacity > Self.keptCapacity { bytes = [] } else { bytes.removeAll(keepingCapacity: true) }
            readerIndex = 0
        } else if readerIndex > 4096 && readerIndex * 2 > bytes.count {
            bytes.removeFirst(readerIndex)
            readerIndex = 0
        }
    }

    /// Calls `body` with the readable bytes.
    func withReadableBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[readerIndex...]))
        }
    }
}
