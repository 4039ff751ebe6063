import Basics
import Synchronization

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

/// The thread-safe face of an event loop: a task queue, a job queue and the backend's waker.
final class LoopHandle: Sendable {
    let waker: Waker
    private let tasks = Locked<[LoopTask]>([])
    private let jobs = Locked<JobQueue>(JobQueue())
    /// Jobs queued and not finished: read on every turn of the loop without taking the lock.
    private let pendingJobs = Atomic<Int>(0)

    init(waker: Waker) { self.waker = waker }

    /// Work run on the loop in steps (`LoopExecutor`), first in, first out.
    private struct JobQueue {
        var steps: [@Sendable () -> Bool] = []
        /// Where the first job not yet finished is (the ones before it are done).
        var head = 0

        var isEmpty: Bool { head == steps.count }
    }

    /// Queues a job (a step run until it returns false) and wakes the loop; callable from any thread.
    func enqueue(_ step: @escaping @Sendable () -> Bool) {
        let wasEmpty = jobs.withLock { queue in
            defer { queue.steps.append(step) }
            return queue.isEmpty
        }
        pendingJobs.add(1, ordering: .releasing)
        if wasEmpty { waker.wake() }
    }

    /// Whether a job waits (the loop then polls instead of sleeping).
    var hasJobs: Bool { pendingJobs.load(ordering: .acquiring) > 0 }

    /// The first job's next step, if any; on the loop thread.
    func nextStep() -> (@Sendable () -> Bool)? {
        jobs.withLock { $0.isEmpty ? nil : $0.steps[$0.head] }
    }

    /// The first job has no more steps; on the loop thread.
    func finishJob() {
        pendingJobs.subtract(1, ordering: .relaxed)
        jobs.withLock { queue in
            queue.head += 1
            if queue.isEmpty {
                queue.steps.removeAll(keepingCapacity: true)
                queue.head = 0
            } else if queue.head >= 64 && 2 * queue.head >= queue.steps.count {
                queue.steps.removeFirst(queue.head)  // a queue that never empties does not grow without end
                queue.head = 0
            }
        }
    }

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
