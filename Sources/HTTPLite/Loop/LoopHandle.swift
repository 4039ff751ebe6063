import CSystem
import Glibc
import Basics

/// Work another thread hands to a loop: stream output and shutdown notices.
enum LoopTask: Sendable {
    case streamWrite(ConnectionKey, [UInt8])
    case streamFinish(ConnectionKey)
    case deferredComplete(ConnectionKey, Response)
    case beginShutdown
}

/// Identifies a connection across threads: the fd alone could be reused after a close.
struct ConnectionKey: Sendable, Hashable {
    let fd: Int32
    let serial: UInt64
}

/// The thread-safe face of an event loop: its epoll instance, a task queue and an eventfd
/// that wakes the loop. Made on the starting thread so set-up errors surface there.
final class LoopHandle: Sendable {
    let epollFD: Int32
    let wakeFD: Int32
    private let tasks = Locked<[LoopTask]>([])

    init(listenerFD: Int32) throws {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw SocketError("epoll_create1") }
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard wakeFD >= 0 else {
            close(epollFD)
            throw SocketError("eventfd")
        }
        // The listener is shared by every loop; EPOLLEXCLUSIVE wakes one of them per connection.
        for (fd, events) in [(wakeFD, EPOLLIN.rawValue), (listenerFD, EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue)] {
            var event = epoll_event()
            event.events = events
            event.data.fd = fd
            guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else {
                let error = SocketError("epoll_ctl")
                close(wakeFD)
                close(epollFD)
                throw error
            }
        }
    }

    deinit {
        close(wakeFD)
        close(epollFD)
    }

    /// Queues a task and wakes the loop; callable from any thread.
    func submit(_ task: LoopTask) {
        tasks.withLock { $0.append(task) }
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Takes every queued task; called on the loop thread after the eventfd fires.
    func takeTasks() -> [LoopTask] {
        var counter: UInt64 = 0
        _ = read(wakeFD, &counter, MemoryLayout<UInt64>.size)
        return tasks.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
    }
}
