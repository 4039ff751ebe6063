import Glibc
import Testing

@testable import HTTPLite

/// The cross-thread task queue of a loop: tasks arrive in order, and a burst of them wakes
/// the loop once.
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
}
