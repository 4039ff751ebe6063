import Basics
import Foundation
import Synchronization

/// A live list's events: their bytes, and handing them to its streams.
extension LiveList {
    /// Sends `session`'s selection to its streams of this list (a `selection` event), where
    /// the collection shares one. Read under the lock, so whichever of two quick selections
    /// is sent last says the one the session kept; a stream skipping events for being slow
    /// gets it in its `reset`.
    func sendSelection(to session: Session) {
        guard C.sharesSelection else { return }
        current.withLock { current in
            dropClosedStreams(&current)
            let streams = current.streams.filter { $0.session === session && !$0.isSlow.load(ordering: .relaxed) }
            guard !streams.isEmpty else { return }
            let event = Self.selectionEvent(session.selection(in: C.name))
            for stream in streams { stream.subscriber.send(event) }
            hub.metrics.count(.selection, streams: streams.count, bytes: event.count)
        }
    }

    /// `event: selection`, `data: {"selectedId": …}`, without an id: it changes no version,
    /// so a client resuming after it resumes from the list's last delta.
    static func selectionEvent(_ id: String?) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 48)
        json.beginObject()
        json.field("selectedId", id)
        json.endObject()
        return LiveEvent.encode("selection", id: nil, data: json.bytes)
    }

    /// Hands `bytes` to every stream keeping up; a stream past the unsent limit is skipped
    /// from now on and gets a `reset` once it drains.
    func send(_ bytes: [UInt8], kind: LiveMetrics.EventKind, committedAt: Date?, _ current: inout Current) {
        dropClosedStreams(&current)
        var targets: [any LiveSubscriber] = []
        targets.reserveCapacity(current.streams.count)
        for stream in current.streams where !stream.isSlow.load(ordering: .relaxed) {
            if stream.subscriber.unsentBytes > hub.configuration.maxUnsentBytes {
                stream.isSlow.store(true, ordering: .relaxed)
                stream.subscriber.whenDrained { [weak self, hub, executorSeed] in
                    hub.run(forListsOf: executorSeed) { [weak self] in self?.recover(stream) }
                }
                continue
            }
            targets.append(stream.subscriber)
        }
        hub.metrics.count(kind, streams: targets.count, bytes: bytes.count)
        hub.broadcast(bytes, to: targets) { [hub] in
            // Commit to written to the sockets: the server's own part of a change's latency.
            if let committedAt { hub.metrics.observeLatency(max(0, Date().timeIntervalSince(committedAt))) }
        }
        current.lastEvent = .now
    }

    /// A `snapshot` or `reset` event for `stream`: the list's page body, its version and, for
    /// a reset, the reason.
    func event(_ name: StaticString, reason: ResetReason?, for stream: LiveStream, _ current: inout Current) -> [UInt8] {
        if current.snapshot?.v != current.v { current.snapshot = (current.v, snapshotBody(current)) }
        var body = current.snapshot?.bytes ?? []
        // The page's members, then the session's selection where the collection shares one, `v` and the reason.
        body.removeLast()
        var json = JSONWriter(reservingCapacity: 64)
        json.beginObject()
        if C.sharesSelection { json.field("selectedId", stream.session?.selection(in: C.name)) }
        json.key("v")
        json.int(Int(current.v))
        if let reason { json.field("reason", reason.rawValue) }
        json.endObject()
        body.append(UInt8(ascii: ","))
        body.append(contentsOf: json.bytes.dropFirst())
        return LiveEvent.encode(name, token: LiveToken(epoch: epoch, v: current.v), data: body)
    }

    /// The body a GET of the list returns (without a session's selection).
    private func snapshotBody(_ current: Current) -> [UInt8] {
        CollectionEngine<C>.pageBody(
            total: current.total, formattedTotal: current.totalText, nextCursor: current.nextCursor, purpose: purpose,
            position: current.position,
            counts: CollectionEngine<C>.countsMembers(values: current.counts, texts: current.countTexts), sections: current.sections,
            criteria: current.criteriaJSON, itemsBytes: current.rows.reduce(current.rows.count + 2) { $0 + $1.bytes.count }
        ) {
            json in
            json.beginArray()
            for row in current.rows { json.raw(row.bytes) }
            json.endArray()
        }
    }

    /// `{"v":…,"base":…,"at":…,"total":…,"formattedTotal":…,["nextCursor":…,]["index":…,"itemsBefore":…,"itemsAfter":…,]["counts":…,"formattedCounts":…,]`
    /// `["sections":…,]["removedSections":…,]"ops":[…]}`.
    static func deltaBody(
        v: UInt64, base: UInt64, at: Date, total: Int, formattedTotal: String, nextCursor: String??, position: PagePosition?,
        counts: [UInt8]?, sections: [UInt8]?,
        ops: [WindowOp], sentRows: [String: [UInt8]]
    ) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: 256)
        json.beginObject()
        json.field("v", Int(v))
        json.field("base", Int(base))
        json.field("at", Int((at.timeIntervalSince1970 * 1000).rounded()))
        json.field("total", total)
        json.field("formattedTotal", formattedTotal)
        if let nextCursor { json.field("nextCursor", nextCursor) }
        if let position { position.write(to: &json) }
        if let counts { json.raw(counts) }
        if let sections { json.raw(sections) }
        json.key("ops")
        json.beginArray()
        for op in ops {
            json.beginObject()
            switch op {
            case .remove(let id, let index):
                json.field("op", "remove")
                json.field("id", id)
                json.field("index", index)
            case .move(let id, let from, let to):
                json.field("op", "move")
                json.field("id", id)
                json.field("from", from)
                json.field("to", to)
            case .insert(let id, let index):
                json.field("op", "insert")
                json.field("index", index)
                json.key("row")
                json.raw(sentRows[id] ?? Array("null".utf8))
            case .update(let id):
                json.field("op", "update")
                json.field("id", id)
                json.key("row")
                json.raw(sentRows[id] ?? Array("null".utf8))
            }
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }
}
