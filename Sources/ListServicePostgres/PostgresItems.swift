import ListService

/// Collections' items in their tables, as the JSON records of their data files (`jsonb`):
/// seeded once into an empty database, loaded with the change log's position.
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
            try connection.execute("CREATE TABLE IF NOT EXISTS seeded (at timestamptz NOT NULL)")
            guard try connection.execute("SELECT 1 FROM seeded").rows.isEmpty else { return false }
            for seed in seeds {
                try connection.copy(
                    "COPY \(PostgresSchema.table(of: seed.collection)) (id, revision, item) FROM STDIN",
                    rows: seed.rows().lazy.map { [$0.id, "1", $0.record] })
            }
            try connection.execute("INSERT INTO seeded (at) VALUES (clock_timestamp())")
            return true
        }
    }

    /// A collection's items with their revisions, and the change log's position, read in one
    /// consistent snapshot (`REPEATABLE READ`): no change can fall between the two.
    package static func load<C: ListCollection>(
        _ collection: C.Type, from connection: PostgresConnection
    ) throws(PostgresError) -> (items: [(item: C.Item, revision: Int64)], position: Int64) {
        let (position, rows) = try connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { () throws(PostgresError) in
            let position = try connection.execute("SELECT coalesce(max(position), 0) FROM change_log").firstValue.flatMap { Int64($0) } ?? 0
            return (position, try connection.execute("SELECT id, revision, item FROM \(PostgresSchema.table(of: C.name)) ORDER BY id").rows)
        }
        var items: [(item: C.Item, revision: Int64)] = []
        items.reserveCapacity(rows.count)
        for row in rows {
            guard row.count == 3, let id = row[0], let revision = row[1].flatMap({ Int64($0) }), let record = row[2] else {
                throw PostgresError(message: "\(PostgresSchema.table(of: C.name)): a row without its id, revision or item")
            }
            do {
                items.append((try C.decodeItem(try JSONParser.parse(Array(record.utf8)), path: id), revision))
            } catch {
                throw PostgresError(message: "\(PostgresSchema.table(of: C.name)) \(id): \(error)")
            }
        }
        return (items, position)
    }

    /// `item`'s JSON record, as its data file holds it.
    package static func record<C: ListCollection>(_ item: C.Item, of collection: C.Type) -> String {
        var json = JSONWriter(reservingCapacity: 256)
        C.writeItem(item, to: &json)
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
