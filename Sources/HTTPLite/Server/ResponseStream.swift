import Synchronization

/// The writable end of a streaming response. Safe to use from any thread: each write is
/// handed to the connection's loop, which sends it in order.
public final class ResponseStream: Sendable {
    private let loop: LoopHandle
    let key: ConnectionKey
    private let openFlag = Atomic<Bool>(true)

    init(loop: LoopHandle, key: ConnectionKey) {
        self.loop = loop
        self.key = key
    }

    /// False once the client has gone or the stream was finished; writes are then dropped.
    public var isOpen: Bool { openFlag.load(ordering: .acquiring) }

    /// Sends one piece of the body. Returns false if the stream is no longer open.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard isOpen else { return false }
        loop.submit(.streamWrite(key, bytes))
        return true
    }

    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Ends the body; the connection then serves the next request or closes.
    public func finish() {
        guard openFlag.exchange(false, ordering: .acquiringAndReleasing) else { return }
        loop.submit(.streamFinish(key))
    }

    /// Called by the loop when the connection closes.
    func markClosed() { openFlag.store(false, ordering: .releasing) }
}
