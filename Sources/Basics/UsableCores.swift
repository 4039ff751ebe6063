import Foundation

/// The cores this process may run on: its affinity mask (`Cpus_allowed` in /proc/self/status,
/// which `taskset`, cpusets and container runtimes narrow), else every online core. What "one
/// per core" counts: Foundation's processor count and `sysconf` see every core of the machine,
/// so a server pinned to one core would run two event loops and two update queues on it.
public enum UsableCores {
    /// Read once, at first use.
    public static let count: Int = {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        return count(inStatus: status) ?? ProcessInfo.processInfo.activeProcessorCount
    }()

    /// The number of bits set in the `Cpus_allowed` hex mask of a /proc status text.
    public static func count(inStatus status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        let count = line.dropFirst("Cpus_allowed:".count).reduce(0) { $0 + (UInt8(String($1), radix: 16)?.nonzeroBitCount ?? 0) }
        return count > 0 ? count : nil
    }
}
