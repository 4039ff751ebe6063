import Glibc

/// Monotonic time for deadlines and durations, immune to wall-clock changes: the one clock the
/// server's loops, its access log, `Server-Timing` and the latency histograms read.
public enum MonotonicClock {
    public static func nanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    public static func milliseconds() -> Int64 { nanoseconds() / 1_000_000 }
}
