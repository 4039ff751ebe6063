import CZlib

/// CRC-32 (IEEE 802.3) by zlib, for journal records and snapshots.
enum CRC32 {
    /// The CRC-32 of `bytes`; with `continuing`, of the bytes that gave that checksum followed by these.
    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
        UInt32(crc32_z(uLong(previous), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), bytes.count))
    }

    static func checksum(_ bytes: [UInt8], continuing previous: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: previous) }
    }
}
