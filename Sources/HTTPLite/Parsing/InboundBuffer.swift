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

    /// A 64-bit fingerprint of the bytes in `range` (FNV-1a over 8-byte words): equal bytes,
    /// equal prints; unequal bytes almost never.
    func fingerprint(of range: Range<Int>) -> UInt64 {
        bytes.withUnsafeBytes { all in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound {
                hash = (hash ^ all.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01b3
                offset += 8
            }
            while offset < range.upperBound {
                hash = (hash ^ UInt64(all[offset])) &* 0x100_0000_01b3
                offset += 1
            }
            return hash ^ UInt64(range.count)
        }
    }

    /// Calls `body` with the readable bytes.
    func withReadableBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[readerIndex...]))
        }
    }
}
