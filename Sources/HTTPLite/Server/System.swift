import Glibc

/// Facts about the machine the server runs on.
public enum System {
    /// Raises the open-file limit to its hard maximum so the connection cap, not the kernel, decides.
    public static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(openFilesResource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(openFilesResource, &limit)
    }

    private static let openFilesResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
}
