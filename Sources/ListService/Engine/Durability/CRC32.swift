import CZlib

/// CRC-32 (IEEE 802.3) by zlib, for journal records and snapshots.
enum CRC32 {
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(crc32_z(0, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), bytes.count))
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { checksum($0) } }
}
