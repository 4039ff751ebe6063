import CZlib

/// gzip content coding (RFC 9110 §8.4.1.3) by zlib: never hand-written deflate.
public enum Gzip {
    /// `bytes` as one gzip member, in an array of exactly its size (caches keep it: a buffer
    /// sized for the worst case would hold about the input's size again); nil only if zlib
    /// fails (out of memory). Level 6 is zlib's default: most of level 9's ratio at a fraction of its time.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bound)
        defer { scratch.deallocate() }
        let status = bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            stream.next_out = scratch.baseAddress
            stream.avail_out = uInt(bound)
            return deflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(scratch[..<Int(stream.total_out)])
    }
}

/// gzip of a body that is made in pieces (a streamed file): each piece is compressed as it
/// comes, holding zlib's window and no more; `finish` ends the member. Use from one thread
/// at a time.
public final class GzipStream {
    private var stream = z_stream()
    private var isOpen: Bool
    private var output = [UInt8](repeating: 0, count: 64 * 1024)

    public init(level: Int32 = 6) {
        isOpen = czlib_deflate_init_gzip(&stream, level) == Z_OK
    }

    deinit { if isOpen { deflateEnd(&stream) } }

    /// The compressed bytes `bytes` yield so far (often none: zlib gathers a block first);
    /// nil if zlib failed.
    public func compress(_ bytes: [UInt8]) -> [UInt8]? { deflating(bytes, flush: Z_NO_FLUSH) }

    /// The member's last bytes; nil if zlib failed.
    public func finish() -> [UInt8]? { deflating([], flush: Z_FINISH) }

    private func deflating(_ bytes: [UInt8], flush: Int32) -> [UInt8]? {
        guard isOpen else { return nil }
        var compressed: [UInt8] = []
        var status = Z_OK
        bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            output.withUnsafeMutableBufferPointer { buffer in
                // zlib's contract: call again while it filled the whole output buffer.
                repeat {
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    status = deflate(&stream, flush)
                    compressed.append(contentsOf: buffer[..<(buffer.count - Int(stream.avail_out))])
                } while stream.avail_out == 0 && (status == Z_OK || status == Z_BUF_ERROR)
            }
        }
        stream.next_in = nil
        // Z_BUF_ERROR only says no progress was possible (no input yet): not a failure.
        let failed = flush == Z_FINISH ? status != Z_STREAM_END : !(status == Z_OK || status == Z_BUF_ERROR)
        return failed ? nil : compressed
    }
}
