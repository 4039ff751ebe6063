import CSystem

/// The calling thread's name as the system shows it (`top -H`, `perf`): Foundation's
/// `Thread.name`, set before a thread starts, does not reach it on Linux, where a new thread
/// keeps its creator's name.
public enum ThreadName {
    /// Names the calling thread (cut to 15 bytes).
    public static func set(_ name: String) { _ = csystem_set_thread_name(name) }

    /// The calling thread's name.
    public static var current: String {
        var buffer = [CChar](repeating: 0, count: 16)
        _ = csystem_thread_name(&buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
