import Glibc

/// poll(2), woken by a pipe: portable POSIX, O(watched descriptors) per wait. The second
/// backend, so another platform is one small backend away; `--event-backend poll` selects it
/// and part of the test suite runs on it.
final class PollBackend: EventBackend {
    let waker: Waker
    private var interests: [Int32: Interest] = [:]
    /// The poll set, rebuilt when interests change.
    private var descriptors: [pollfd] = []
    private var isDirty = true

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SocketError("pipe") }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        waker = Waker(readFD: ends[0], writeFD: ends[1])
        interests[ends[0]] = .read
    }

    func register(_ fd: Int32, interest: Interest, isShared: Bool) -> Bool {
        // Every loop polling a shared listener wakes; the ones that lose the accept get EAGAIN.
        interests[fd] = interest
        isDirty = true
        return true
    }

    func update(_ fd: Int32, interest: Interest) {
        guard interests[fd] != nil else { return }
        interests[fd] = interest
        isDirty = true
    }

    func unregister(_ fd: Int32) {
        interests[fd] = nil
        isDirty = true
    }

    func wait(timeout: Int32, _ report: (ReadyEvent) -> Void) -> Bool {
        if isDirty {
            descriptors = interests.map { pollfd(fd: $0.key, events: Self.events($0.value), revents: 0) }
            isDirty = false
        }
        let count = poll(&descriptors, nfds_t(descriptors.count), timeout)
        if count < 0 { return errno == EINTR }
        guard count > 0 else { return true }
        for index in descriptors.indices where descriptors[index].revents != 0 {
            let flags = Int32(descriptors[index].revents)
            descriptors[index].revents = 0
            report(
                ReadyEvent(
                    fd: descriptors[index].fd, isReadable: flags & Int32(POLLIN) != 0, isWritable: flags & Int32(POLLOUT) != 0,
                    isHangUp: flags & (Self.peerClosed | Int32(POLLHUP)) != 0, isError: flags & Int32(POLLERR | POLLNVAL) != 0))
        }
        return true
    }

    #if os(Linux)
        private static let peerClosed: Int32 = 0x2000  // POLLRDHUP, which Glibc's module hides behind _GNU_SOURCE
    #else
        private static let peerClosed: Int32 = 0  // POLLHUP alone reports a hang-up elsewhere
    #endif

    private static func events(_ interest: Interest) -> Int16 {
        var flags: Int32 = 0
        if interest.contains(.read) { flags |= Int32(POLLIN) }
        if interest.contains(.write) { flags |= Int32(POLLOUT) }
        if interest.contains(.hangUp) { flags |= peerClosed }
        return Int16(flags)
    }
}
