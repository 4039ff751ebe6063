import Basics
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How often one live list may send an event. While the processor has room, every
/// `minimumEventInterval`; while the process keeps the cores it may run on busy (90% or more
/// over a sample of 50 ms) and writes wait for each other (a batch took more than one), the
/// interval doubles per sample up to `maximumEventInterval`, so lists send fewer events that
/// each carry more changes and writers keep the processor; it halves again per sample once
/// either is no longer so (busy under 75%, or no write waited). Live work alone never
/// stretches it: with no writer waiting, events go out as fast as they are made. (A list's
/// events are positioned ops over its window, so one event carrying two writes' changes is as
/// right as two events.)
package final class LivePacing: Sendable {
    private let minimum: UInt64
    private let maximum: UInt64
    private let cores: UInt64
    private let cpuTime: @Sendable () -> UInt64
    private let sample = Locked<Sample>(Sample())
    /// Writes that waited for another's batch since the last sample.
    private let waitingWrites = Atomic<Int>(0)

    private struct Sample {
        /// Monotonic clock and process CPU time (both nanoseconds) at the last sample.
        var at: UInt64 = 0
        var cpu: UInt64 = 0
        var interval: UInt64 = 0
    }

    private static let samplePeriod: UInt64 = 50_000_000

    /// `cores`: how many the process may run on; `cpuTime`: the process's CPU time so far in
    /// nanoseconds (tests give their own).
    init(
        minimum: Duration, maximum: Duration, cores: Int = UsableCores.count,
        cpuTime: @escaping @Sendable () -> UInt64 = LivePacing.processCPUNanoseconds
    ) {
        self.minimum = minimum.nanoseconds
        self.maximum = max(self.minimum, maximum.nanoseconds)
        self.cores = UInt64(max(1, cores))
        self.cpuTime = cpuTime
        sample.withLock { $0.interval = self.minimum }
    }

    /// The interval now (nanoseconds), sampling the processor's load when the last sample is
    /// 50 ms old.
    func interval(now: UInt64) -> UInt64 {
        sample.withLock { sample in
            guard now >= sample.at + Self.samplePeriod else { return sample.interval }
            let cpu = cpuTime()
            let waited = waitingWrites.exchange(0, ordering: .relaxed)
            if sample.at != 0 {
                let busy = Double(cpu &- sample.cpu) / Double((now - sample.at) * cores)
                if busy >= 0.9 && waited > 0 {
                    sample.interval = min(maximum, sample.interval * 2)
                } else if busy < 0.75 || waited == 0 {
                    sample.interval = max(minimum, sample.interval / 2)
                }
            }
            sample.at = now
            sample.cpu = cpu
            return sample.interval
        }
    }

    /// A batch of `count` writes was made: all but its first waited for another write.
    package func noteBatch(of count: Int) {
        if count > 1 { waitingWrites.add(count - 1, ordering: .relaxed) }
    }

    /// The interval as last sampled, in milliseconds (for `/metrics`).
    var currentMilliseconds: Int { Int(sample.withLock { $0.interval } / 1_000_000) }

    /// The process's user and system time so far.
    static func processCPUNanoseconds() -> UInt64 {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func nanoseconds(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1_000 }
        return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
    }
}
