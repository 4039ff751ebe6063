import Synchronization

/// When one live list's refreshes are due, so its events are at least the pacing's interval
/// apart. The interval counts from when the last refresh was due, not from when it ran: lists
/// refreshed together keep one schedule (and share one round and its memos), and a round that
/// ran late does not push back the next change's event.
final class LiveSchedule: Sendable {
    /// When the last refresh was due (nanoseconds on the monotonic clock; 0: never).
    private let lastDue = Atomic<UInt64>(0)

    /// How long a refresh queued at `now` should wait (nanoseconds); it is then the one due.
    /// Called by one queuer at a time (a list queues one refresh at a time).
    func delay(now: UInt64, interval: UInt64) -> UInt64 {
        let last = lastDue.load(ordering: .relaxed)
        let delay = last == 0 || now >= last + interval ? 0 : last + interval - now
        lastDue.store(now + delay, ordering: .relaxed)
        return delay
    }
}
