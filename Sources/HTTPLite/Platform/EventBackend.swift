import Glibc

/// Readiness a connection waits for.
struct Interest: OptionSet, Hashable {
    let rawValue: UInt8

    static let read = Interest(rawValue: 1)
    static let write = Interest(rawValue: 2)
    /// The peer closed its side (reported even while input is not read).
    static let hangUp = Interest(rawValue: 4)
    static let reading: Interest = [.read, .hangUp]
}

/// One descriptor's readiness, as a backend reports it.
struct ReadyEvent {
    let fd: Int32
    let isReadable: Bool
    let isWritable: Bool
    /// The peer hung up (or closed its sending side).
    let isHangUp: Bool
    let isError: Bool
}

/// What an event loop waits with: readiness of descriptors, and a wake-up other threads can
/// trigger. Everything platform specific about waiting lives behind this protocol (epoll and
/// eventfd in `EpollBackend`, portable poll(2) and a pipe in `PollBackend`); a loop uses its
/// backend on its own thread only, except `waker`.
protocol EventBackend: AnyObject {
    /// Wakes the loop from any thread.
    var waker: Waker { get }
    /// Starts watching `fd`. `isShared`: several loops watch it (the listener); wake one.
    func register(_ fd: Int32, interest: Interest, isShared: Bool) -> Bool
    func update(_ fd: Int32, interest: Interest)
    /// Stops watching `fd` (before it is closed).
    func unregister(_ fd: Int32)
    /// Waits up to `timeout` milliseconds (-1: no limit) and reports each ready descriptor;
    /// false when waiting failed for good.
    func wait(timeout: Int32, _ report: (ReadyEvent) -> Void) -> Bool
}

/// Which backend a server's loops use.
public enum EventBackendKind: String, Sendable, CaseIterable {
    /// epoll(7): Linux's scalable readiness API (the default there).
    case epoll
    /// poll(2): portable POSIX, O(n) per wait; for other platforms and for tests.
    case poll

    /// The platform's best backend.
    public static var platformDefault: EventBackendKind {
        #if os(Linux)
            .epoll
        #else
            .poll
        #endif
    }

    func make() throws -> any EventBackend {
        switch self {
        case .epoll:
            #if os(Linux)
                try EpollBackend()
            #else
                throw SocketError("epoll is not available on this platform")
            #endif
        case .poll: try PollBackend()
        }
    }
}

/// A descriptor another thread writes to so a loop's wait returns.
final class Waker: Sendable {
    let fd: Int32
    private let writeFD: Int32
    private let ownsBoth: Bool

    /// One descriptor read and written (eventfd), or a pipe's two ends.
    init(readFD: Int32, writeFD: Int32) {
        fd = readFD
        self.writeFD = writeFD
        ownsBoth = readFD != writeFD
    }

    deinit {
        close(fd)
        if ownsBoth { close(writeFD) }
    }

    /// Makes the loop's next (or current) wait return.
    func wake() {
        var one: UInt64 = 1
        _ = write(writeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Consumes the wake-ups so far (on the loop thread).
    func drain() {
        var sink = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while read(fd, &sink, MemoryLayout.size(ofValue: sink)) > 0 && ownsBoth {}
    }
}
