import Foundation
import Basics
import ListService

/// PostgreSQL as the service's storage, shared by any number of replicas: each collection's
/// items in its table, every change in the change log. A batch is one call of
/// `listservice_append` (one transaction: the items' revisions checked against the state the
/// batch was decided on, the items and their log entries written, the replicas notified); the
/// changes other replicas made are read from the log past this replica's position.
package final class PostgresStorage: ChangeStorage, @unchecked Sendable {
    // Invariant: `writer` and `isPrepared` are used by `load` before the service runs and then
    // only on the writer queue (every call but `watch`), so by one thread at a time.
    private let writer: PostgresLink
    /// Whether the schema is current and the database seeded (done by the first `load`).
    private var isPrepared = false
    private let configuration: Configuration
    private let log: ServiceLog
    package let status = ReplicationStatus()
    private let watchers = Locked<[PostgresWatcher]>([])

    /// Where the database is, what seeds it, how much of the log it keeps.
    package struct Configuration: Sendable {
        /// libpq's connection string (`postgresql://user@host:port/db` or `host=… dbname=…`).
        package var connectionString: String
        /// Each collection's first items, read only if this replica seeds an empty database.
        package var seed: @Sendable () throws(StartupError) -> [any AnyCollectionStore]
        /// Changes the log keeps behind its head; a replica further behind loads everything again.
        package var retainedChanges: Int = Self.defaultRetainedChanges
        /// How often the watcher trims the log.
        package var trimInterval: Duration = .seconds(30)

        package static let defaultRetainedChanges = 1_000_000

        package init(connectionString: String, seed: @escaping @Sendable () throws(StartupError) -> [any AnyCollectionStore]) {
            self.connectionString = connectionString
            self.seed = seed
        }
    }

    package init(_ configuration: Configuration, log: ServiceLog) {
        self.configuration = configuration
        self.log = log
        writer = PostgresLink(connectionString: configuration.connectionString, status: status, log: log, role: "writer")
    }

    /// Migrates the schema and seeds an empty database (once, whoever starts first; on the
    /// first load only), then reads every collection and the log's position in one
    /// `REPEATABLE READ` snapshot.
    package func load() throws(StartupError) -> LoadedCollections {
        let connection = try startup { () throws(PostgresError) in try writer.connection() }
        if !isPrepared {
            try prepare(connection)
            isPrepared = true
        }
        return try startup { () throws(PostgresError) in
            try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { () throws(PostgresError) in
                let position = try connection.execute("SELECT position FROM log_head").firstValue.flatMap { UInt64($0) } ?? 0
                let epoch = try connection.execute("SELECT epoch FROM cluster").firstValue
                var loader = PostgresLoader(connection: connection)
                CollectionRegistry.visitAll(&loader)
                if let error = loader.error { throw error }
                return LoadedCollections(
                    stores: loader.stores, position: position, sequences: loader.sequences,
                    reports: loader.reports.map { "\($0) source=database position=\(position)" }, sharedEpoch: epoch,
                    answers: try PostgresItems.answers(from: connection))
            }
        }
    }

    /// Brings the schema up to date and seeds an empty database.
    private func prepare(_ connection: PostgresConnection) throws(StartupError) {
        let needsSeed = try startup { () throws(PostgresError) in
            let schema = try PostgresSchema.migrate(connection, collections: PostgresLoader.collectionNames)
            if schema.from != schema.to { log.line("level=info event=schema-migrated from=\(schema.from) to=\(schema.to)") }
            return try !PostgresItems.isSeeded(connection)
        }
        if needsSeed {  // the seed data is read only when the database may need it; seeding checks again under its lock
            let seeds = PostgresLoader.seeds(try configuration.seed())
            if try startup({ () throws(PostgresError) in try PostgresItems.seedOnce(connection, seeds) }) {
                log.line("level=info event=database-seeded")
            }
        }
    }

    /// `body`'s database error as a start-up error (a lost connection is made again next time:
    /// a reload runs this too).
    private func startup<T>(_ body: () throws(PostgresError) -> T) throws(StartupError) -> T {
        do {
            return try body()
        } catch {
            writer.dropIfBroken()
            throw StartupError(description: "database: \(error)")
        }
    }

    package func append(_ changes: [StoredChange], decidedAt position: UInt64) -> AppendOutcome {
        let connection: PostgresConnection
        do {
            connection = try writer.connection()
        } catch {
            return .failed(source: StorageSource.database, reason: "\(error)")  // nothing was sent
        }
        do {
            let head = try connection.execute(
                "SELECT listservice_append($1, $2::jsonb)", [String(position), String(decoding: Self.batch(changes), as: UTF8.self)]
            ).firstValue.flatMap { Int64($0) }
            guard let head else { return .failed(source: StorageSource.database, reason: "the append returned no position") }
            return head < 0 ? .stale : .appended(position: UInt64(head))
        } catch {
            // An error the server answered rolled the transaction back. A connection lost after
            // the call was sent leaves its commit unknown: if it went through, the change comes
            // back from the log like any other replica's.
            let isLost = !connection.isConnected
            writer.dropIfBroken()
            return .failed(source: StorageSource.database, reason: "\(error)", mayHaveSaved: isLost)
        }
    }

    package func changes(after position: UInt64, limit: Int) -> ChangesSince {
        let rows: [[String?]]
        do {
            rows = try writer.connection().execute(
                """
                SELECT h.position, c.position, c.collection, c.id, c.item::text, c.committed_ms, c.is_answer
                FROM log_head h LEFT JOIN LATERAL (
                    SELECT position, collection, id, item, (extract(epoch FROM committed_at) * 1000)::bigint AS committed_ms, is_answer
                    FROM change_log WHERE position > $1 ORDER BY position LIMIT $2
                ) c ON true
                ORDER BY c.position
                """, [String(position), String(limit)]
            ).rows
        } catch {
            writer.dropIfBroken()
            return .failed(reason: "\(error)")
        }
        let head = rows.first?.first.flatMap { $0.flatMap { UInt64($0) } } ?? position
        var logged: [LoggedChange] = []
        logged.reserveCapacity(rows.count)
        for row in rows {
            guard row.count == 7, let at = row[1].flatMap({ UInt64($0) }), let collection = row[2], let id = row[3] else { continue }
            logged.append(
                LoggedChange(
                    position: at, committedAt: row[5].flatMap { Int64($0) } ?? 0,
                    change: StoredChange(collection: collection, id: id, record: row[4].map { Array($0.utf8) }, isAnswer: row[6] == "t")))
        }
        // Positions are dense (given out under the head's lock), so a gap means trimmed.
        if let first = logged.first, first.position != position + 1 { return .trimmed }
        if logged.isEmpty, head > position { return .trimmed }
        return .changes(logged, head: head)
    }

    package func watch(_ wake: @escaping @Sendable () -> Void) {
        let watcher = PostgresWatcher(
            link: PostgresLink(connectionString: configuration.connectionString, status: status, log: log, role: "listener"),
            retainedChanges: configuration.retainedChanges, trimInterval: configuration.trimInterval, log: log, wake: wake)
        watchers.withLock { $0.append(watcher) }
        watcher.start()
    }

    /// Stops watching for changes made elsewhere (a replica shutting down, a test ending).
    package func stopWatching() {
        for watcher in watchers.withLock({ $0 }) { watcher.isStopped.store(true, ordering: .relaxed) }
    }

    /// A batch as `listservice_append` takes it: `[{"collection", "id", "item"}]`, `item` the
    /// record, or null for a deletion; an answer has `"answer": true` and its record as `item`.
    static func batch(_ changes: [StoredChange]) -> [UInt8] {
        var json = JSONWriter(reservingCapacity: changes.reduce(2) { $0 + ($1.record?.count ?? 4) + 48 })
        json.beginArray()
        for change in changes {
            json.beginObject()
            json.field("collection", change.collection)
            json.field("id", change.id)
            json.key("item")
            if let record = change.record { json.raw(record) } else { json.null() }
            if change.isAnswer { json.field("answer", true) }
            json.endObject()
        }
        json.endArray()
        return json.bytes
    }
}
