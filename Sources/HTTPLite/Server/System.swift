import Glibc

/// Facts about the machine the server runs on.
public enum System {
    public static var coreCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Raises the open-file limit to its hard maximum so the connection cap, not the kernel, decides.
    public static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_CONSTANT, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(RLIMIT_NOFILE_CONSTANT, &limit)
    }

    private static let RLIMIT_NOFILE_CONSTANT = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)

    /// Writes a line to stderr (Glibc's `stderr` global is not usable in Swift 6 mode).
    public static func printError(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        writeAll(2, bytes)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                guard let base = raw.baseAddress else { return }
                let written = write(fd, base + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
