import Synchronization

/// The promise of a response, completed once from any thread; the connection's loop then
/// sends it. Completing after the client left does nothing.
public final class DeferredResponse: Sendable {
    private let deliver: @Sendable (Response) -> Void
    private let isPending = Atomic<Bool>(true)

    /// A promise whose response goes to `deliver` (in-process callers and tests).
    public init(deliver: @escaping @Sendable (Response) -> Void) { self.deliver = deliver }

    convenience init(loop: LoopHandle, key: ConnectionKey) {
        self.init { response in loop.submit(.deferredComplete(key, response)) }
    }

    /// Sends `response` (a fixed body; any other kind is answered 500). Only the first call counts.
    public func complete(_ response: Response) {
        guard isPending.exchange(false, ordering: .acquiringAndReleasing) else { return }
        deliver(response)
    }
}
