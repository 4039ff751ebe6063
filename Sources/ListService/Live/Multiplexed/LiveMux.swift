import Basics
import Foundation

/// Multiplexed live streams (`GET /live`): one connection carrying any number of a session's
/// live lists (up to `LiveConfiguration.maxListsPerStream`), each under the client's name for
/// it. A stream is kept for `LiveConfiguration.linger` after its connection drops, so a client
/// that reconnects with its last event id gets every list back where it was.
package final class LiveMux: Sendable {
    private let hub: LiveHub
    private let streams = Locked<[String: LiveMuxStream]>([:])

    package init(hub: LiveHub) {
        self.hub = hub
        hub.addSweeper { [weak self] now in self?.sweep(now: now) }
        hub.addStopper { [weak self] in self?.stop() }
    }

    /// Opens a stream for `owner` (a session), taking one place under the caps. With the id of
    /// an event this owner's stream sent (`lastEventID`), that stream comes back with every
    /// list it had, each resuming after the last of its events the client took; `reopen`
    /// opens a list's path again (nil: it cannot be watched any more, and is closed).
    package func open(
        owner: String, lastEventID: String?, reopen: @escaping @Sendable (_ path: String, _ lastEventID: String?) -> LiveOpening?
    ) throws(LiveHub.Refusal) -> LiveMuxOpening {
        let reservation = try hub.reserve(caller: "session " + owner) { pruneDetached() }
        let resumed = lastEventID.flatMap(LiveToken.init).flatMap { token in
            streams.withLock { $0[token.epoch] }.flatMap { $0.owner == owner ? ($0, token.v) : nil }
        }
        let stream: LiveMuxStream
        if let (existing, _) = resumed {
            stream = existing
        } else {
            stream = LiveMuxStream(id: SessionStore.makeID(), owner: owner, hub: hub)  // 128 random bits: not guessable
            streams.withLock { $0[stream.id] = stream }
        }
        return LiveMuxOpening { subscriber in
            stream.attach(subscriber, reservation: reservation, resumingAfter: resumed?.1, reopen: reopen)
        }
    }

    /// The stream `id` if it is `owner`'s.
    package func stream(id: String, owner: String) -> LiveMuxStream? {
        streams.withLock { $0[id] }.flatMap { $0.owner == owner ? $0 : nil }
    }

    /// Streams held (connected or waiting for their client to come back).
    package var count: Int { streams.withLock { $0.count } }

    /// Heartbeats; streams whose client left give back their place, and are dropped once
    /// they have waited `linger` for it.
    private func sweep(now: ContinuousClock.Instant) {
        let expired = streams.withLock { $0 }.filter { $0.value.sweep(now: now) }.map(\.key)
        guard !expired.isEmpty else { return }
        let dropped = streams.withLock { streams in expired.compactMap { streams.removeValue(forKey: $0) } }
        for stream in dropped { stream.close() }
    }

    private func pruneDetached() {
        for stream in streams.withLock({ Array($0.values) }) { _ = stream.sweep(now: .now) }
    }

    private func stop() {
        for stream in streams.withLock({ Array($0.values) }) { stream.stop() }
    }
}

/// A multiplexed stream ready to start: `start` attaches the client's connection and sends
/// `hello` (and, resuming, what each list missed). Discarding it unstarted gives its place back.
package struct LiveMuxOpening: Sendable {
    package let start: @Sendable (any LiveSubscriber) -> Void
}
