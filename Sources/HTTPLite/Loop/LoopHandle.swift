import Basics

/// Work another thread hands to a loop: stream output and shutdown notices.
enum LoopTask: Sendable {
    case streamWrite(ConnectionKey, [UInt8])
    /// The same bytes for many streams of this loop (one event fanned out); `written` runs
    /// on the loop once it has written them to every one of those sockets.
    case streamBroadcast([ConnectionKey], [UInt8], written: (@Sendable () -> Void)?)
    case streamFinish(ConnectionKey)
    /// The producer gave up: close without ending the body.
    case streamAbort(ConnectionKey)
    case deferredComplete(ConnectionKey, Response)
    case beginShutdown
}

/// Identifies a connection across threads: the fd alone could be reused after a close.
struct ConnectionKey: Sendable, Hashable {
    let fd: Int32
    let serial: UInt64
}

/// The thread-safe face of an event loop: a task queue and the backend's waker.
final class LoopHandle: Sendable {
    let waker: Waker
    private let tasks = Locked<[LoopTask]>([])

    init(waker: Waker) { self.waker = waker }

    /// Queues a task and wakes the loop; callable from any thread. Only the task that finds
    /// the queue empty wakes it: the loop takes the whole queue after that wake-up, so a
    /// burst of events (a hundred lists' deltas after one write) costs one wake-up, not one each.
    func submit(_ task: LoopTask) {
        let wasEmpty = tasks.withLock { queued in
            defer { queued.append(task) }
            return queued.isEmpty
        }
        if wasEmpty { waker.wake() }
    }

    /// Takes every queued task; called on the loop thread after the waker fired (drained
    /// first, so a task queued after the take wakes the loop again).
    func takeTasks() -> [LoopTask] {
        waker.drain()
        return tasks.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
    }
}
