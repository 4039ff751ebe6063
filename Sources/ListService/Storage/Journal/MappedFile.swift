import Glibc

/// A file mapped read-only into memory: its bytes are read straight from the page cache, and
/// pages already read can be handed back (`release`), so parsing a 480 MB file does not keep
/// 480 MB resident. Sendable because it never changes after `init`: threads only read the
/// bytes and `release` only advises the kernel.
final class MappedFile: @unchecked Sendable {
    /// The file's bytes, valid while the mapping lives.
    let bytes: UnsafeRawBufferPointer

    /// Maps `path`; the error is errno's description.
    init(path: String) throws(MappingError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MappingError(code: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw MappingError(code: errno) }
        let size = Int(status.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw MappingError(code: errno)
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }

    /// Drops the whole pages inside `range` from this process's resident memory; reading them
    /// again reads the file again (the mapping is private and never written), so this changes
    /// memory use, never what the bytes read.
    func release(_ range: Range<Int>) {
        guard let base = bytes.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + range.lowerBound + page - 1) / page * page
        let end = (Int(bitPattern: base) + range.upperBound) / page * page
        guard end > start, let address = UnsafeMutableRawPointer(bitPattern: start) else { return }
        madvise(address, end - start, MADV_DONTNEED)
    }
}

/// Why a file could not be mapped.
struct MappingError: Error, CustomStringConvertible {
    let code: Int32
    var description: String { String(cString: strerror(code)) }
}
