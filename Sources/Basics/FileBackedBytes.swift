import CSystem
import Glibc

/// Immutable bytes that many responses send (a grouped list's sections), also written once
/// into an anonymous file in memory, so that a socket is handed them with `sendfile`: the
/// kernel then refers to the file's pages instead of copying the bytes out of this process for
/// every response (nginx's `sendfile on` for its static files). Bytes below
/// `fileMinimum`, or past `maximumFiles` files alive at once (each holds a descriptor the
/// server's connections need too), get no file and are sent from memory.
public final class FileBackedBytes: Sendable {
    /// Smaller bytes are cheaper copied than handed over page by page.
    public static let fileMinimum = 32 * 1024
    /// How many files may be alive at once, across the process.
    public static let maximumFiles = 256

    public let bytes: [UInt8]
    /// The file holding `bytes`, from offset 0; nil when they have none.
    public let file: Int32?

    private static let liveFiles = Locked(0)

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        file = bytes.count >= Self.fileMinimum ? Self.makeFile(holding: bytes) : nil
    }

    deinit {
        guard let file else { return }
        close(file)
        Self.liveFiles.withLock { $0 -= 1 }
    }

    /// What holding them costs in bytes: the bytes, twice when a file holds them too.
    public var cost: Int { file == nil ? bytes.count : 2 * bytes.count }

    /// A new file holding `bytes`; nil when the limit is reached or the system has none to give.
    private static func makeFile(holding bytes: [UInt8]) -> Int32? {
        let isAllowed = liveFiles.withLock { count in
            guard count < maximumFiles else { return false }
            count += 1
            return true
        }
        guard isAllowed else { return nil }
        let file = csystem_memory_file("listservice-shared-bytes")
        if file >= 0, write(bytes, to: file) { return file }
        if file >= 0 { close(file) }
        liveFiles.withLock { $0 -= 1 }
        return nil
    }

    /// Writes all of `bytes` at the file's start; false when the system refused (out of memory).
    private static func write(_ bytes: [UInt8], to file: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = pwrite(file, buffer.baseAddress.map { $0 + written }, buffer.count - written, off_t(written))
                if count > 0 {
                    written += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}
