/// The database's schema, created and upgraded by the server itself at start: versioned
/// migrations for what every replica shares (the change log), then a table per collection,
/// created if missing (a collection added later gets its table on the first start that
/// knows it). Replicas starting at the same moment take turns: a transaction-level advisory
/// lock serialises them, so each migration runs exactly once.
package enum PostgresSchema {
    /// Each version's statements, in order. A released version never changes; a change is a
    /// new version.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE change_log (
                position bigint PRIMARY KEY,
                collection text NOT NULL,
                id text NOT NULL,
                revision bigint NOT NULL,
                item jsonb,
                committed_at timestamptz NOT NULL DEFAULT clock_timestamp()
            )
            """
        ]
    ]

    /// The advisory lock key migrations hold (any fixed number; "LSSC" in ASCII).
    static let lockKey = 0x4C53_5343

    /// The table holding `collection`'s items.
    package static func table(of collection: String) -> String { "items_\(collection)" }

    /// Brings the schema to the newest version and makes the collections' tables; returns the
    /// version found and the version now. A schema newer than this build knows is refused,
    /// never marked older.
    @discardableResult
    package static func migrate(_ connection: PostgresConnection, collections: [String]) throws(PostgresError) -> (from: Int, to: Int) {
        try connection.transaction { () throws(PostgresError) in
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [String(lockKey)])
            try connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
            let found = try connection.execute("SELECT version FROM schema_version").firstValue.flatMap { Int($0) }
            let from = found ?? 0
            guard from <= migrations.count else {
                throw PostgresError(
                    message: "the database's schema is version \(from), newer than this build's \(migrations.count): run a newer build")
            }
            for statements in migrations.dropFirst(from) {
                for statement in statements { try connection.execute(statement) }
            }
            if found == nil {
                try connection.execute("INSERT INTO schema_version (version) VALUES ($1)", [String(migrations.count)])
            } else {
                try connection.execute("UPDATE schema_version SET version = $1", [String(migrations.count)])
            }
            for collection in collections {
                try connection.execute(
                    "CREATE TABLE IF NOT EXISTS \(table(of: collection)) (id text PRIMARY KEY, revision bigint NOT NULL, item jsonb NOT NULL)"
                )
            }
            return (from, migrations.count)
        }
    }
}
