import Basics
import Glibc
import Testing

@testable import HTTPLite

/// The cross-thread task and job queues of a loop: tasks and jobs arrive in order, and a burst
/// of either wakes the loop once.
@Suite struct LoopHandleTests {
    /// Reads what is pending on the waker's descriptor without blocking: the eventfd's counter
    /// (epoll) or the number of bytes in the pipe (poll), so each is the number of wake-ups.
    private func pendingWakeUps(_ waker: Waker, backend: EventBackendKind) -> Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(waker.fd, &buffer, buffer.count)
        guard count > 0 else { return 0 }
        switch backend {
        case .epoll: return buffer.withUnsafeBytes { Int($0.loadUnaligned(as: UInt64.self)) }
        case .poll: return count / MemoryLayout<UInt64>.size
        }
    }

    @Test(arguments: EventBackendKind.allCases)
    func aBurstOfTasksWakesTheLoopOnce_andArrivesInOrder(_ backend: EventBackendKind) throws {
        let made = try backend.make()
        let handle = LoopHandle(waker: made.waker)
        for index in 0..<100 { handle.submit(.streamWrite(ConnectionKey(fd: 3, serial: UInt64(index)), [])) }
        #expect(pendingWakeUps(made.waker, backend: backend) == 1, "only the task that found the queue empty woke the loop")
        let serials = handle.takeTasks().compactMap { task -> UInt64? in
            guard case .streamWrite(let key, _) = task else { return nil }
            return key.serial
        }
        #expect(serials == Array(0..<100))
        handle.submit(.streamFinish(ConnectionKey(fd: 3, serial: 0)))
        #expect(pendingWakeUps(made.waker, backend: backend) == 1, "a task after the take wakes the loop again")
        #expect(handle.takeTasks().count == 1)
    }

    @Test(arguments: EventBackendKind.allCases)
    func jobsRunInOrder_aStepAtATime_andABurstWakesTheLoopOnce(_ backend: EventBackendKind) throws {
        let made = try backend.make()
        let handle = LoopHandle(waker: made.waker)
        let log = Locked<[String]>([])
        func enqueueJob(_ name: Int, steps: Int) {
            let taken = Locked(0)
            handle.enqueue {
                let step = taken.withLock { taken in
                    taken += 1
                    return taken
                }
                log.withLock { $0.append("\(name).\(step)") }
                return step < steps
            }
        }
        for name in 0..<3 { enqueueJob(name, steps: 2) }
        #expect(pendingWakeUps(made.waker, backend: backend) == 1, "only the job that found the queue empty woke the loop")
        #expect(handle.hasJobs)
        let first = try #require(handle.nextStep())
        let hasMore = first()
        #expect(hasMore)
        let again = try #require(handle.nextStep())
        let hasMoreStill = again()
        #expect(!hasMoreStill, "an unfinished job stays first")
        handle.finishJob()
        #expect(log.withLock { $0 } == ["0.1", "0.2"])
        // Many jobs through one queue that never empties: still in order, one step each time.
        for name in 3..<200 { enqueueJob(name, steps: 1) }
        var finished = 0
        while let step = handle.nextStep() {
            if !step() { handle.finishJob() }
            finished += 1
            if finished % 50 == 0 { enqueueJob(1_000 + finished, steps: 1) }
        }
        #expect(!handle.hasJobs)
        let entries: [String] = log.withLock { $0 }
        let names: [Int] = entries.dropFirst(2).map { entry in Int(entry.prefix { $0 != "." }) ?? -1 }
        #expect(Array(names.prefix(4)) == [1, 1, 2, 2])
        #expect(names.count == 4 + 197 + 4)
        let single: [Int] = names.dropFirst(4).filter { $0 < 1_000 }
        #expect(single == Array(3..<200), "jobs ran in the order they came")
        #expect(pendingWakeUps(made.waker, backend: backend) == 0, "jobs queued while others waited did not wake the loop")
    }
}
