import Basics
import Foundation
import Synchronization

/// One multiplexed stream: its lists by the client's key, the connection they go out on, and
/// for each list its recent events' ids, so that one id of the stream's names where every list
/// was. Every list's events are relabelled here (`"list": key` in the data, the stream's own
/// id) and written under one lock, so ids go out in order.
package final class LiveMuxStream: Sendable {
    package let id: String
    let owner: String
    private let hub: LiveHub
    private let state = Locked<State>(State())

    private struct State {
        var subscriber: (any LiveSubscriber)?
        var reservation: LiveReservation?
        var lists: [String: Entry] = [:]
        /// The number of the stream's last event (its id is `<stream id>-<seq>`).
        var seq: UInt64 = 0
        var lastSent: ContinuousClock.Instant = .now
        var detachedSince: ContinuousClock.Instant?
    }

    private struct Entry {
        var path: String
        var channel: LiveMuxChannel
        /// The stream's `seq` before the list's first event: a client that had not got past it never saw the list.
        var addedAfter: UInt64
        /// The list's recent events: the stream's number for each and the list's own event id.
        var history: [(seq: UInt64, token: String)] = []
    }

    init(id: String, owner: String, hub: LiveHub) {
        self.id = id
        self.owner = owner
        self.hub = hub
    }

    /// Starts (or, after `seq`, resumes) the stream on `subscriber`: `retry:`, `hello`, then
    /// each list again through `reopen`, resuming from the list's last event at or before
    /// `seq` (a snapshot for a list added after it, a `reset` where its history is gone).
    func attach(
        _ subscriber: any LiveSubscriber, reservation: LiveReservation, resumingAfter seq: UInt64?,
        reopen: @Sendable (_ path: String, _ lastEventID: String?) -> LiveOpening?
    ) {
        let lists = state.withLock { state -> [(key: String, path: String, channel: LiveMuxChannel, lastEventID: String?)] in
            if let previous = state.subscriber, previous !== subscriber { previous.finish() }
            state.reservation?.release()
            state.subscriber = subscriber
            state.reservation = reservation
            state.detachedSince = nil
            var hello = JSONWriter()
            hello.beginObject()
            hello.field("stream", id)
            hello.endObject()
            subscriber.send(hub.retryLine() + LiveEvent.encode("hello", id: nil, data: hello.bytes))
            state.lastSent = .now
            guard let seq else { return [] }
            return state.lists.keys.sorted().compactMap { key in
                guard var entry = state.lists[key] else { return nil }
                entry.channel.deactivate()
                entry.channel = LiveMuxChannel(key: key, stream: self)
                state.lists[key] = entry
                return (key, entry.path, entry.channel, Self.resumeToken(of: entry, after: seq))
            }
        }
        for list in lists {
            guard let opening = reopen(list.path, list.lastEventID) else {
                remove(list.key)
                continue
            }
            opening.start(list.channel)
        }
    }

    /// Where the list `entry` resumes for a client whose last event was `seq`: none (a
    /// snapshot) if it never saw the list; the list's own id of its last event at or before
    /// `seq`; or, when that is no longer held, an id of the list no event has (a `gap` reset).
    private static func resumeToken(of entry: Entry, after seq: UInt64) -> String? {
        guard seq > entry.addedAfter, let oldest = entry.history.first else { return nil }
        if let last = entry.history.last(where: { $0.seq <= seq }) { return last.token }
        return LiveToken(oldest.token).map { LiveToken(epoch: $0.epoch, v: .max).text }
    }

    /// Starts `opening`'s list on the stream under `key`, replacing the list it had there;
    /// false when the stream already holds `maxListsPerStream` others (the opening is then
    /// discarded).
    package func put(_ key: String, path: String, opening: LiveOpening) -> Bool {
        let channel = LiveMuxChannel(key: key, stream: self)
        let isAdmitted = state.withLock { state -> Bool in
            if let replaced = state.lists[key] {
                replaced.channel.deactivate()
            } else if state.lists.count >= hub.configuration.maxListsPerStream {
                return false
            }
            state.lists[key] = Entry(path: path, channel: channel, addedAfter: state.seq)
            return true
        }
        if isAdmitted { opening.start(channel) }
        return isAdmitted
    }

    /// Stops the list under `key` and says so on the stream (`closed`); false when there is none.
    @discardableResult
    package func remove(_ key: String) -> Bool {
        state.withLock { state in
            guard let entry = state.lists.removeValue(forKey: key) else { return false }
            entry.channel.deactivate()
            var json = JSONWriter()
            json.beginObject()
            json.field("list", key)
            json.endObject()
            state.seq += 1
            send(LiveEvent.encode("closed", id: "\(id)-\(state.seq)", data: json.bytes), &state)
            return true
        }
    }

    /// The keys and paths of the stream's lists, in key order.
    package var lists: [(key: String, path: String)] {
        state.withLock { state in state.lists.keys.sorted().compactMap { key in state.lists[key].map { (key, $0.path) } } }
    }

    // MARK: what the lists send

    /// A list's events, relabelled for the stream: each gets the stream's next id and
    /// `"list": key` in its data; `retry:` and heartbeats are the stream's own and dropped.
    func forward(_ bytes: [UInt8], from channel: LiveMuxChannel) {
        state.withLock { state in
            guard channel.isActive, var entry = state.lists[channel.key], entry.channel === channel else { return }
            var out: [UInt8] = []
            for frame in LiveEvent.frames(in: bytes) {
                state.seq += 1
                out += LiveEvent.encode(frame.name, id: "\(id)-\(state.seq)", data: Self.labelled(frame.data, key: channel.key))
                // An event without an id of its list (a selection) moves no list: nothing to resume from.
                if !frame.id.isEmpty { entry.history.append((state.seq, frame.id)) }
            }
            if entry.history.count > hub.configuration.replayEvents {
                entry.history.removeFirst(entry.history.count - hub.configuration.replayEvents)
            }
            state.lists[channel.key] = entry
            if !out.isEmpty { send(out, &state) }
        }
    }

    /// `{"list":"<key>",…}` from a list's `{…}`.
    private static func labelled(_ data: ArraySlice<UInt8>, key: String) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: data.count + key.utf8.count + 12)
        json.beginObject()
        json.field("list", key)
        var bytes = json.bytes
        let members = data.dropFirst()  // past `{`
        if members.first != UInt8(ascii: "}") { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: members)
        return bytes
    }

    private func send(_ bytes: [UInt8], _ state: inout State) {
        state.subscriber?.send(bytes)
        state.lastSent = .now
    }

    /// Whether the client is connected.
    var isAttached: Bool { state.withLock { $0.subscriber?.isOpen ?? false } }

    var unsentBytes: Int { state.withLock { $0.subscriber?.unsentBytes ?? 0 } }

    func whenDrained(_ body: @escaping @Sendable () -> Void) {
        guard let subscriber = state.withLock({ $0.subscriber }) else { return }
        subscriber.whenDrained(body)
    }

    // MARK: upkeep

    /// A heartbeat after a quiet spell; a client gone gives back its place. True once the
    /// stream has waited `linger` for its client to come back (the caller then drops it).
    func sweep(now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            if let subscriber = state.subscriber, subscriber.isOpen {
                if now - state.lastSent >= hub.configuration.heartbeat { send(LiveEvent.heartbeat, &state) }
                return false
            }
            state.reservation?.release()
            state.reservation = nil
            let since = state.detachedSince ?? now
            state.detachedSince = since
            return now - since >= hub.configuration.linger
        }
    }

    /// Drops every list (the stream is gone for good).
    func close() {
        state.withLock { state in
            for entry in state.lists.values { entry.channel.deactivate() }
            state.lists = [:]
            state.subscriber = nil
            state.reservation?.release()
            state.reservation = nil
        }
    }

    /// Ends the connection with a jittered `retry:` (shutdown).
    func stop() {
        state.withLock { state in
            state.subscriber?.send(hub.retryLine())
            state.subscriber?.finish()
            state.reservation?.release()
            state.reservation = nil
        }
    }
}

/// One list's place on a multiplexed stream: what the list sends to, as if to a stream of
/// its own. Deactivated when the list is removed or replaced, or the stream reconnects.
final class LiveMuxChannel: LiveSubscriber {
    let key: String
    private let stream: LiveMuxStream
    private let active = Atomic<Bool>(true)

    init(key: String, stream: LiveMuxStream) {
        self.key = key
        self.stream = stream
    }

    var isActive: Bool { active.load(ordering: .acquiring) }
    func deactivate() { active.store(false, ordering: .releasing) }

    var isOpen: Bool { isActive && stream.isAttached }
    var unsentBytes: Int { stream.unsentBytes }
    func send(_ bytes: [UInt8]) { stream.forward(bytes, from: self) }
    /// A list ends its streams only at shutdown, when the multiplexed stream ends itself.
    func finish() { deactivate() }
    func whenDrained(_ body: @escaping @Sendable () -> Void) { stream.whenDrained(body) }
}
