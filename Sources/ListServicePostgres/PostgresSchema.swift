/// The database's schema, created and upgraded by the server itself at start: versioned
/// migrations for what every replica shares (the change log, its head, the append function),
/// then a table per collection (`id`, `revision`: the log position that last changed it, `item`),
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
        ],
        [
            // The log's head: appends take its row lock, held to their commit, so positions
            // are given out in commit order and a reader never sees N+1 before N.
            "CREATE TABLE log_head (position bigint NOT NULL)",
            "CREATE TABLE IF NOT EXISTS seeded (at timestamptz NOT NULL)",
            "INSERT INTO log_head (position) SELECT coalesce(max(position), 0) FROM change_log",
            """
            CREATE FUNCTION listservice_append(base bigint, changes jsonb) RETURNS bigint LANGUAGE plpgsql AS $$
            DECLARE
                head bigint;
                change jsonb;
                found bigint;
                n bigint := 0;
            BEGIN
                SELECT position INTO head FROM log_head FOR UPDATE;
                FOR change IN SELECT value FROM jsonb_array_elements(changes) LOOP
                    EXECUTE format('SELECT revision FROM %I WHERE id = $1', 'items_' || (change->>'collection'))
                        INTO found USING change->>'id';
                    IF found > base THEN
                        RETURN -1;
                    END IF;
                END LOOP;
                FOR change IN SELECT value FROM jsonb_array_elements(changes) LOOP
                    n := n + 1;
                    EXECUTE format(
                        'INSERT INTO %I (id, revision, item) VALUES ($1, $2, $3) '
                        'ON CONFLICT (id) DO UPDATE SET revision = excluded.revision, item = excluded.item',
                        'items_' || (change->>'collection'))
                        USING change->>'id', head + n, nullif(change->'item', 'null'::jsonb);
                    INSERT INTO change_log (position, collection, id, revision, item)
                        VALUES (head + n, change->>'collection', change->>'id', head + n, nullif(change->'item', 'null'::jsonb));
                END LOOP;
                UPDATE log_head SET position = head + n;
                PERFORM pg_notify('listservice_changes', (head + n)::text);
                RETURN head + n;
            END
            $$
            """,
        ],
        [
            // What every replica's live-stream tokens carry: one value per database.
            "CREATE TABLE cluster (epoch text NOT NULL)",
            "INSERT INTO cluster (epoch) VALUES ('c' || substr(md5(random()::text || clock_timestamp()::text), 1, 8))",
        ],
        [
            // Keyed writes' answers (`Idempotency-Key`), saved in the transaction of the write they
            // answer and logged like an item's change (`is_answer`), so every replica replays them.
            // An answer another replica saved after the batch's base makes the batch stale, so
            // two replicas never both run a request under one key.
            """
            CREATE TABLE request_answers (
                id text PRIMARY KEY,
                revision bigint NOT NULL,
                answer jsonb NOT NULL,
                recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
            )
            """,
            "ALTER TABLE change_log ADD COLUMN is_answer boolean NOT NULL DEFAULT false",
            """
            CREATE OR REPLACE FUNCTION listservice_append(base bigint, changes jsonb) RETURNS bigint LANGUAGE plpgsql AS $$
            DECLARE
                head bigint;
                change jsonb;
                found bigint;
                is_answer boolean;
                n bigint := 0;
            BEGIN
                SELECT position INTO head FROM log_head FOR UPDATE;
                FOR change IN SELECT value FROM jsonb_array_elements(changes) LOOP
                    IF coalesce((change->>'answer')::boolean, false) THEN
                        SELECT revision INTO found FROM request_answers WHERE id = change->>'id';
                    ELSE
                        EXECUTE format('SELECT revision FROM %I WHERE id = $1', 'items_' || (change->>'collection'))
                            INTO found USING change->>'id';
                    END IF;
                    IF found > base THEN
                        RETURN -1;
                    END IF;
                END LOOP;
                FOR change IN SELECT value FROM jsonb_array_elements(changes) LOOP
                    n := n + 1;
                    is_answer := coalesce((change->>'answer')::boolean, false);
                    IF is_answer THEN
                        INSERT INTO request_answers (id, revision, answer) VALUES (change->>'id', head + n, change->'item')
                            ON CONFLICT (id) DO UPDATE
                            SET revision = excluded.revision, answer = excluded.answer, recorded_at = excluded.recorded_at;
                    ELSE
                        EXECUTE format(
                            'INSERT INTO %I (id, revision, item) VALUES ($1, $2, $3) '
                            'ON CONFLICT (id) DO UPDATE SET revision = excluded.revision, item = excluded.item',
                            'items_' || (change->>'collection'))
                            USING change->>'id', head + n, nullif(change->'item', 'null'::jsonb);
                    END IF;
                    INSERT INTO change_log (position, collection, id, revision, item, is_answer)
                        VALUES (head + n, change->>'collection', change->>'id', head + n, nullif(change->'item', 'null'::jsonb), is_answer);
                END LOOP;
                UPDATE log_head SET position = head + n;
                PERFORM pg_notify('listservice_changes', (head + n)::text);
                RETURN head + n;
            END
            $$
            """,
        ],
    ]

    /// The channel appends notify, with the log's new head as the payload.
    package static let changesChannel = "listservice_changes"

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
                // A deleted item keeps its row with a NULL item: its revision still tells a
                // replica that decided on an older state that the item changed.
                try connection.execute(
                    "CREATE TABLE IF NOT EXISTS \(table(of: collection)) (id text PRIMARY KEY, revision bigint NOT NULL, item jsonb)")
            }
            return (from, migrations.count)
        }
    }
}
