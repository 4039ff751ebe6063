import Dispatch

extension Quakes {
    /// `POST /quakes/import`: a USGS FeatureCollection, parsed off the caller's thread (a feed
    /// of tens of megabytes must not stall reads) and upserted by id.
    package static func operations(writes: WriteCoordinator) -> [CollectionOperation] {
        [
            CollectionOperation(path: "import", takesLargeBodies: true, requiredRole: .admin) { body, keyed, answer in
                guard
                    let answer = writes.answers.admitting(
                        keyed, answer, answered: { OperationAnswer.replaying($0).mapError(OperationRefusal.rejected) })
                else { return }
                DispatchQueue.global(qos: .userInitiated).async {
                    switch QuakeFeed.parse(body) {
                    case .failure(let refusal): answer(.failure(refusal))
                    case .success(let feed):
                        importFeed(feed, keyed: keyed, writes: writes) { answer($0.mapError(OperationRefusal.rejected)) }
                    }
                }
            }
        ]
    }

    /// Upserts a feed's earthquakes by id in one trip through the journal: a feature whose
    /// `updated` is not newer than the stored one is left alone. Reports the import's summary
    /// (counts of inserted, updated and unchanged, and the feed's rejections) as JSON once
    /// durable, or storage's refusal. A keyed import's summary is saved with it and replayed
    /// to a retry.
    static func importFeed(
        _ feed: QuakeFeed, keyed: KeyedRequest? = nil, writes: WriteCoordinator,
        then report: @escaping @Sendable (Result<OperationAnswer, WriteRejection>) -> Void
    ) {
        writes.submit { batch in
            if let recorded = batch.recordedAnswer(to: keyed) {
                return batch.onSettled { report(OperationAnswer.replaying(recorded)) }
            }
            var inserted = 0, updated = 0, unchanged = 0
            for quake in feed.quakes {
                switch batch.item(Quakes.self, id: quake.id) {
                case let stored? where stored.updated >= quake.updated:
                    unchanged += 1
                    continue
                case .some: updated += 1
                case nil: inserted += 1
                }
                batch.record(Quakes.self, .upsert(quake))
            }
            var json = JSONWriter()
            json.beginObject()
            for (name, count) in [("inserted", inserted), ("updated", updated), ("unchanged", unchanged)] {
                json.key(name)
                json.int(count)
            }
            feed.rejections.write(to: &json)
            json.endObject()
            let summary = json.bytes
            if let keyed {
                batch.record(
                    answer: RecordedAnswer(
                        request: keyed, collection: Quakes.name, outcome: .done, body: summary, recordedAt: batch.answers.now))
            }
            batch.onCommit { committed in
                report(committed.map { OperationAnswer(body: summary, replayed: false) })
                FreedMemory.returnToSystem()  // a feed's parse may have grown the heap by its size: hand that back
            }
        }
    }
}
