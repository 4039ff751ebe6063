import Synchronization

/// The promise of a response, completed once from any thread; the connection's loop then
/// sends it. Completing after the client left does nothing.
public final class DeferredResponse: Sendable {
    private let loop: LoopHandle
    let key: ConnectionKey
    private let isPending = Atomic<Bool>(true)

    init(loop: LoopHandle, key: ConnectionKey) {
        self.loop = loop
        self.key = key
    }

    /// Sends `response` (a fixed body; a deferred or streamed one is answered 500). Only the
    /// first call counts.
    public func complete(_ response: Response) {
        guard isPending.exchange(false, ordering: .acquiringAndReleasing) else { return }
        loop.submit(.deferredComplete(key, response))
    }
}
