import CZlib

/// A gzip body decoded with zlib, as a client would; nil if it is not one valid gzip member.
func gunzip(_ bytes: [UInt8]) -> [UInt8]? {
    var stream = z_stream()
    guard czlib_inflate_init_gzip(&stream) == Z_OK else { return nil }
    defer { inflateEnd(&stream) }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    var input = bytes
    return input.withUnsafeMutableBufferPointer { input -> [UInt8]? in
        stream.next_in = input.baseAddress
        stream.avail_in = uInt(input.count)
        while true {
            let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return inflate(&stream, Z_NO_FLUSH)
            }
            output.append(contentsOf: chunk[..<(chunk.count - Int(stream.avail_out))])
            if status == Z_STREAM_END { return stream.avail_in == 0 ? output : nil }
            guard status == Z_OK else { return nil }
        }
    }
}
