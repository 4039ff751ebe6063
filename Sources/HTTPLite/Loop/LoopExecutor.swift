/// Runs work on one event loop's thread, between its reads and writes: a job is a step run
/// again while it returns true, one step per turn of the loop, and whatever a step wrote to
/// this loop's streams is sent before the next step runs. Work that fans out to many streams
/// (a change pushed to live lists) thus reaches the first streams while the rest is still
/// being made, with no thread to wake and no socket left waiting for a whole batch. Jobs run
/// in the order they were given; keep each step short, since the loop's connections wait for it.
public final class LoopExecutor: Sendable {
    private let handle: LoopHandle

    init(_ handle: LoopHandle) { self.handle = handle }

    /// Queues `step` from any thread; it runs on the loop until it returns false.
    public func run(_ step: @escaping @Sendable () -> Bool) { handle.enqueue(step) }
}
