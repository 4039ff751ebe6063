import Synchronization

/// Where a live list's events go: one client's open event stream. The HTTP binding's stream
/// conforms; tests use a recorder.
package protocol LiveSubscriber: AnyObject, Sendable {
    /// False once the client has gone or the stream was finished.
    var isOpen: Bool { get }
    /// Bytes sent to the stream that the client has not yet taken.
    var unsentBytes: Int { get }
    func send(_ bytes: [UInt8])
    /// Ends the stream.
    func finish()
    /// Runs `body` once everything sent so far has been taken (or never, if the stream closes).
    func whenDrained(_ body: @escaping @Sendable () -> Void)
}

/// Sends one event's bytes to many subscribers at once (`LiveConfiguration.broadcast`); the
/// HTTP binding's hands the bytes to each event loop once. `written` runs once the bytes are
/// written to every subscriber's socket (where the server's own latency is measured to).
package typealias LiveBroadcast =
    @Sendable (_ bytes: [UInt8], _ subscribers: [any LiveSubscriber], _ written: @escaping @Sendable () -> Void) -> Void

/// One subscriber on one live list, with what the list needs to know of it.
final class LiveStream: Sendable {
    let subscriber: any LiveSubscriber
    /// Its session (the quake selection is echoed in snapshots), or nil for an anonymous client.
    let session: Session?
    /// Its place under the caps, given back when the stream is dropped.
    let reservation: LiveReservation
    /// It fell behind: events are not sent until it drains and gets a `reset`.
    let isSlow = Atomic<Bool>(false)

    init(subscriber: any LiveSubscriber, session: Session?, reservation: LiveReservation) {
        self.subscriber = subscriber
        self.session = session
        self.reservation = reservation
    }
}

/// A stream's place under the caps (per session, or per address without one, and per process), taken before the stream
/// opens. Given back once: by `release()` when the stream is dropped, or when the reservation
/// is discarded unused (the client left before the stream started).
package final class LiveReservation: Sendable {
    private let hub: LiveHub
    /// Whose cap it counts under: a session, or the address of a client that names none.
    private let caller: String?
    private let isHeld: Atomic<Bool>

    /// `isHeld`: false for a list on a multiplexed stream, which holds the place itself.
    init(hub: LiveHub, caller: String?, isHeld: Bool = true) {
        self.hub = hub
        self.caller = caller
        self.isHeld = Atomic(isHeld)
    }

    func release() {
        guard isHeld.exchange(false, ordering: .acquiringAndReleasing) else { return }
        hub.release(caller: caller)
    }

    deinit { release() }
}
