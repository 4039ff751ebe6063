#if os(Linux)
    import CSystem
    import Glibc

    /// epoll(7), woken by an eventfd: Linux's readiness API, O(ready) per wait.
    final class EpollBackend: EventBackend {
        let waker: Waker
        private let epollFD: Int32
        /// Unchecked exclusivity: one loop's thread waits on its backend, one wait at a time.
        @exclusivity(unchecked) private var events = [epoll_event](repeating: epoll_event(), count: 256)

        init() throws {
            epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard epollFD >= 0 else { throw SocketError("epoll_create1") }
            let wakeFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
            guard wakeFD >= 0 else {
                close(epollFD)
                throw SocketError("eventfd")
            }
            waker = Waker(readFD: wakeFD, writeFD: wakeFD)
            guard register(wakeFD, interest: .read, isShared: false) else {
                close(epollFD)
                throw SocketError("epoll_ctl")
            }
        }

        deinit { close(epollFD) }

        func register(_ fd: Int32, interest: Interest, isShared: Bool) -> Bool {
            control(EPOLL_CTL_ADD, fd, Self.events(interest) | (isShared ? EPOLLEXCLUSIVE.rawValue : 0))
        }

        func update(_ fd: Int32, interest: Interest) { _ = control(EPOLL_CTL_MOD, fd, Self.events(interest)) }

        func unregister(_ fd: Int32) { _ = control(EPOLL_CTL_DEL, fd, 0) }

        func wait(timeout: Int32, _ report: (ReadyEvent) -> Void) -> Bool {
            let count = epoll_wait(epollFD, &events, Int32(events.count), timeout)
            if count < 0 { return errno == EINTR }
            for index in 0..<Int(count) {
                let event = events[index]
                let flags = event.events
                report(
                    ReadyEvent(
                        fd: event.data.fd, isReadable: flags & EPOLLIN.rawValue != 0, isWritable: flags & EPOLLOUT.rawValue != 0,
                        isHangUp: flags & (EPOLLRDHUP.rawValue | EPOLLHUP.rawValue) != 0, isError: flags & EPOLLERR.rawValue != 0))
            }
            return true
        }

        private func control(_ operation: Int32, _ fd: Int32, _ flags: UInt32) -> Bool {
            var event = epoll_event()
            event.events = flags
            event.data.fd = fd
            return epoll_ctl(epollFD, operation, fd, &event) == 0
        }

        private static func events(_ interest: Interest) -> UInt32 {
            var flags: UInt32 = 0
            if interest.contains(.read) { flags |= EPOLLIN.rawValue }
            if interest.contains(.write) { flags |= EPOLLOUT.rawValue }
            if interest.contains(.hangUp) { flags |= EPOLLRDHUP.rawValue }
            return flags
        }
    }
#endif
