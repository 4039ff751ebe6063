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
