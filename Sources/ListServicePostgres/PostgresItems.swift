import ListService

/// Collections' items in their tables, as the JSON records of their data files (`jsonb`):
/// seeded once into an empty database (revision 0: before any logged change), then read at
/// every start.
package enum PostgresItems {
    /// One collection's rows for seeding: its name and, made only if this replica seeds, each
    /// item's id and JSON record.
    package struct Seed: Sendable {
        package let collection: String
        package let rows: @Sendable () -> [(id: String, record: String)]

        package init(collection: String, rows: @escaping @Sendable () -> [(id: String, record: String)]) {
            self.collection = collection
            self.rows = rows
        }
    }

    /// The advisory lock key seeding holds ("LSSE" in ASCII).
    static let seedLockKey = 0x4C53_5345

    /// Seeds an empty database once: the first replica to get here writes every collection's
    /// items (the others wait on an advisory lock, then find it done); later starts write
    /// nothing and their `--data` files are ignored. Returns whether this call seeded.
    @discardableResult
    package static func seedOnce(_ connection: PostgresConnection, _ seeds: [Seed]) throws(PostgresError) -> Bool {
        try connection.transaction { () throws(PostgresError) in
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [String(seedLockKey)])
            guard try connection.execute("SELECT 1 FROM seeded").rows.isEmpty else { return false }
            for seed in seeds {
                try connection.copy(
                    "COPY \(PostgresSchema.table(of: seed.collection)) (id, revision, item) FROM STDIN",
                    rows: seed.rows().lazy.map { [$0.id, "0", $0.record] })
            }
            try connection.execute("INSERT INTO seeded (at) VALUES (clock_timestamp())")
            return true
        }
    }

    /// Whether the database was seeded (by any replica, at any time).
    package static func isSeeded(_ connection: PostgresConnection) throws(PostgresError) -> Bool {
        try !connection.execute("SELECT 1 FROM seeded LIMIT 1").rows.isEmpty
    }

    /// A collection's items (deleted ones, kept as rows without an item, left out), the
    /// highest id sequence among all its rows, deleted ones included, and the log position of
    /// its last change (its highest revision). Run it inside the
    /// transaction that reads the log's position, so both reflect one snapshot.
    package static func rows<C: ListCollection>(
        _ collection: C.Type, from connection: PostgresConnection
    ) throws(PostgresError) -> (items: [C.Item], highestSequence: Int, lastPosition: UInt64) {
        let table = PostgresSchema.table(of: C.name)
        let rows = try connection.execute("SELECT id, item, revision FROM \(table) ORDER BY id").rows
        var items: [C.Item] = []
        items.reserveCapacity(rows.count)
        var highestSequence = 0
        var lastPosition: UInt64 = 0
        for row in rows {
            guard row.count == 3, let id = row[0] else { throw PostgresError(message: "\(table): a row without its id") }
            highestSequence = max(highestSequence, C.sequence(of: id) ?? 0)
            lastPosition = max(lastPosition, row[2].flatMap { UInt64($0) } ?? 0)
            guard let record = row[1] else { continue }
            do {
                items.append(try C.decodeRecord(Array(record.utf8), path: id))
            } catch {
                throw PostgresError(message: "\(table) \(id): \(error)")
            }
        }
        return (items, highestSequence, lastPosition)
    }

    /// The keyed writes' answers saved in the last `AnswerLedger.lifetime` (the ledger keeps
    /// what it may replay; older rows wait for the watcher's trim).
    package static func answers(from connection: PostgresConnection) throws(PostgresError) -> [RecordedAnswer] {
        let rows = try connection.execute(
            "SELECT id, answer::text FROM request_answers WHERE recorded_at > clock_timestamp() - $1::bigint * interval '1 millisecond' ORDER BY revision",
            [String(AnswerLedger.lifetime)]
        ).rows
        var answers: [RecordedAnswer] = []
        answers.reserveCapacity(rows.count)
        for row in rows {
            guard row.count == 2, let id = row[0], let record = row[1] else { continue }
            do {
                answers.append(try RecordedAnswer(record: Array(record.utf8), path: "request_answers \(id)"))
            } catch {
                throw PostgresError(message: "\(error)")
            }
        }
        return answers
    }
}
