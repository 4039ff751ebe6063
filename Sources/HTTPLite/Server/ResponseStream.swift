import Basics
import Synchronization

/// The writable end of a streaming response. Safe to use from any thread: each write is
/// handed to the connection's loop, which sends it in order.
public final class ResponseStream: Sendable {
    private let loop: LoopHandle
    let key: ConnectionKey
    private let openFlag = Atomic<Bool>(true)
    /// Bytes handed to `write` that the loop has not yet taken into the connection's output.
    private let queuedBytes = Atomic<Int>(0)
    /// The connection's output not yet taken by the socket, as the loop last saw it.
    private let socketBacklog = Atomic<Int>(0)
    /// Runs once when everything written so far has reached the socket (see `whenDrained`).
    private let drainWaiter = Locked<DrainWaiter?>(nil)
    /// Whether `drainWaiter` may hold a waiter: read on every write the loop makes, so the lock
    /// (a cold cache line per stream) is taken only when one waits.
    private let hasDrainWaiter = Atomic<Bool>(false)

    /// Boxed: a closure kept directly in a `Locked` gains a reabstraction thunk per access.
    private final class DrainWaiter: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    init(loop: LoopHandle, key: ConnectionKey) {
        self.loop = loop
        self.key = key
    }

    /// False once the client has gone or the stream was finished; writes are then dropped.
    public var isOpen: Bool { openFlag.load(ordering: .acquiring) }

    /// Bytes written to the stream that the client's socket has not yet taken: what a slow
    /// reader has fallen behind by. Read sequentially consistent (on x86 a plain load):
    /// `whenDrained` reads it after setting its flag, as `noteBacklog` reads the flag.
    public var unsentBytes: Int {
        queuedBytes.load(ordering: .sequentiallyConsistent) + socketBacklog.load(ordering: .sequentiallyConsistent)
    }

    /// Sends one piece of the body. Returns false if the stream is no longer open.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard isOpen else { return false }
        queuedBytes.add(bytes.count, ordering: .relaxed)
        loop.submit(.streamWrite(key, bytes))
        return true
    }

    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Sends the same bytes on many streams with one task per event loop (not one per
    /// stream): the way to fan one event out to thousands of clients. Closed streams are
    /// skipped. `written` runs once every loop has written the bytes to its streams' sockets
    /// (what is unsent then waits in the connection for the socket to take it), on the last
    /// loop's thread; at once when no stream is open.
    public static func broadcast(_ bytes: [UInt8], to streams: [ResponseStream], written: (@Sendable () -> Void)? = nil) {
        // The loops are few (one per core): found by a look along them, each with room for every key.
        var byLoop: [(loop: LoopHandle, keys: [ConnectionKey])] = []
        byLoop.reserveCapacity(4)
        for stream in streams where stream.isOpen {
            stream.queuedBytes.add(bytes.count, ordering: .relaxed)
            if let index = byLoop.firstIndex(where: { $0.loop === stream.loop }) {
                byLoop[index].keys.append(stream.key)
            } else {
                var keys: [ConnectionKey] = []
                keys.reserveCapacity(streams.count)
                keys.append(stream.key)
                byLoop.append((stream.loop, keys))
            }
        }
        guard let written else {
            for (loop, keys) in byLoop { loop.submit(.streamBroadcast(keys, bytes, written: nil)) }
            return
        }
        guard !byLoop.isEmpty else { return written() }
        let loopsLeft = Countdown(byLoop.count)
        let done: @Sendable () -> Void = { if loopsLeft.finishOne() { written() } }
        for (loop, keys) in byLoop { loop.submit(.streamBroadcast(keys, bytes, written: done)) }
    }

    /// Ends the body; the connection then serves the next request or closes.
    public func finish() {
        guard openFlag.exchange(false, ordering: .acquiringAndReleasing) else { return }
        loop.submit(.streamFinish(key))
    }

    /// Gives up on the body: the connection closes without ending it (no last chunk), so the
    /// client sees an incomplete response rather than a short one that looks whole.
    public func abort() {
        guard openFlag.exchange(false, ordering: .acquiringAndReleasing) else { return }
        loop.submit(.streamAbort(key))
    }

    /// Runs `body` once everything written so far has been taken by the socket (at once,
    /// on the caller's thread, if nothing is unsent), or never if the stream closes first.
    /// It runs on the loop's thread: keep it short. A later call replaces an earlier waiter.
    public func whenDrained(_ body: @escaping @Sendable () -> Void) {
        drainWaiter.withLock { $0 = DrainWaiter(body) }
        // Sequentially consistent with `noteBacklog`: either it sees the flag or this sees its backlog.
        hasDrainWaiter.store(true, ordering: .sequentiallyConsistent)
        if unsentBytes == 0, let waiter = takeDrainWaiter() { waiter.run() }
    }

    private func takeDrainWaiter() -> DrainWaiter? {
        drainWaiter.withLock { waiter in
            hasDrainWaiter.store(false, ordering: .relaxed)
            return waiter.take()
        }
    }

    // MARK: called by the loop

    /// The loop took `count` written bytes into the connection's output.
    func taken(_ count: Int) { queuedBytes.subtract(count, ordering: .relaxed) }

    /// The connection's unsent output is now `count`; a waiter runs once nothing is unsent.
    func noteBacklog(_ count: Int) {
        socketBacklog.store(count, ordering: .sequentiallyConsistent)
        guard count == 0, queuedBytes.load(ordering: .relaxed) == 0, hasDrainWaiter.load(ordering: .sequentiallyConsistent) else {
            return
        }
        if let waiter = takeDrainWaiter() { waiter.run() }
    }

    /// Called by the loop when the connection closes.
    func markClosed() {
        openFlag.store(false, ordering: .releasing)
        _ = takeDrainWaiter()
    }
}

/// How many loops still have to write an event; shared by their tasks.
private final class Countdown: Sendable {
    private let left: Atomic<Int>

    init(_ count: Int) { left = Atomic(count) }

    /// One more is done; true for the last.
    func finishOne() -> Bool { left.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 }
}
