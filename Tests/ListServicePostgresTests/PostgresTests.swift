import Basics
import Foundation
import Testing

@testable import ListService
@testable import ListServicePostgres

/// libpq through our connection, and the schema the server creates, against a PostgreSQL of
/// the tests' own.
@Suite(.serialized, Prerequisite.needs(TemporaryPostgres.isAvailable, "PostgreSQL")) struct PostgresTests {
    @Test func statements_takeParametersAndGiveTextRows() throws {
        let server = try TemporaryPostgres()
        let connection = try PostgresConnection(server.connectionString)
        let rows = try connection.execute("SELECT $1::int + 1, $2::text, $3::text", ["41", "Jürgen", nil]).rows
        #expect(rows == [["42", "Jürgen", nil]])
        try connection.execute("CREATE TABLE t (id text PRIMARY KEY)")
        #expect(try connection.execute("INSERT INTO t VALUES ($1), ($2)", ["a", "b"]).affected == 2)
        do {
            try connection.execute("INSERT INTO t VALUES ($1)", ["a"])
            Issue.record("a duplicate key was accepted")
        } catch {
            #expect(error.sqlState == "23505")
            #expect(error.description.contains("duplicate key"))
        }
        #expect(connection.isConnected, "a failed statement leaves the connection usable")
        #expect(throws: PostgresError.self) { try PostgresConnection("host=\(server.directory)/nowhere dbname=listservice") }
    }

    @Test func notifications_reachAListener() throws {
        let server = try TemporaryPostgres()
        let listener = try PostgresConnection(server.connectionString)
        let sender = try PostgresConnection(server.connectionString)
        try listener.execute("LISTEN changes")
        try sender.execute("SELECT pg_notify('changes', $1)", ["42"])
        var received: [PostgresNotification] = []
        for _ in 0..<200 where received.isEmpty {
            var poller = pollfd(fd: listener.socket, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, 10)
            received += try listener.notifications()
        }
        #expect(received == [PostgresNotification(channel: "changes", payload: "42")])
    }

    /// Migrations run once, even when two replicas start at the same moment, and a later start
    /// finds the schema current and adds tables for collections it did not know.
    @Test func schema_isMigratedOnce_evenByReplicasStartingTogether() throws {
        let server = try TemporaryPostgres()
        let results = Locked<[(from: Int, to: Int)]>([])
        let failures = Locked<[String]>([])
        let connectionString = server.connectionString
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let connection = try PostgresConnection(connectionString)
                let result = try PostgresSchema.migrate(connection, collections: ["orders", "tasks"])
                results.withLock { $0.append(result) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let latest = PostgresSchema.migrations.count
        #expect(results.withLock { $0 }.filter { $0.from == 0 }.count == 1, "exactly one replica migrated")
        #expect(results.withLock { $0 }.allSatisfy { $0.to == latest })
        let connection = try PostgresConnection(server.connectionString)
        #expect(try PostgresSchema.migrate(connection, collections: ["orders", "tasks", "users"]) == (latest, latest))
        let tables = try connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename").rows
        #expect(
            tables == [
                ["change_log"], ["cluster"], ["items_orders"], ["items_tasks"], ["items_users"], ["log_head"], ["request_answers"],
                ["schema_version"],
                ["seeded"],
            ])
        try connection.execute("UPDATE schema_version SET version = 99")
        #expect(throws: PostgresError.self) { try PostgresSchema.migrate(connection, collections: ["orders"]) }
        #expect(try connection.execute("SELECT version FROM schema_version").rows == [["99"]], "a newer schema is left as it is")
    }

    /// Replicas starting together over an empty database: exactly one seeds it, the others
    /// find it seeded, and every one loads the same items (text with backslashes, tabs and
    /// line breaks included: COPY escapes them). A later start with other data writes nothing.
    @Test func emptyDatabase_isSeededOnce_andLoadsTheSameItems() throws {
        let server = try TemporaryPostgres()
        var orders = DefaultOrders.make(count: 300, anchor: ISO8601.parse("2026-11-20T00:00:00Z")!)
        orders[0].title = "tab\there, a \\ backslash,\nand a new line"
        orders[1].customerName = #"Zoë "Q" O'Brien"#
        let seed = PostgresItems.Seed(collection: Orders.name) { [orders] in
            orders.map { ($0.id, String(decoding: Orders.record(of: $0), as: UTF8.self)) }
        }
        let seeded = Locked<[Bool]>([])
        let failures = Locked<[String]>([])
        let connectionString = server.connectionString
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let connection = try PostgresConnection(connectionString)
                try PostgresSchema.migrate(connection, collections: [Orders.name])
                let didSeed = try PostgresItems.seedOnce(connection, [seed])
                seeded.withLock { $0.append(didSeed) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(seeded.withLock { $0 }.filter { $0 }.count == 1, "exactly one replica seeded")
        let connection = try PostgresConnection(server.connectionString)
        let loaded = try PostgresItems.rows(Orders.self, from: connection)
        #expect(loaded.items == orders.sorted { $0.id < $1.id })
        #expect(loaded.highestSequence == orders.compactMap { Orders.sequence(of: $0.id) }.max())
        #expect(try connection.execute("SELECT DISTINCT revision FROM items_orders").rows == [["0"]], "seeded before any logged change")
        let other = PostgresItems.Seed(collection: Orders.name) { [(id: "o-999999", record: "{}")] }
        #expect(try PostgresItems.seedOnce(connection, [other]) == false)
        #expect(try PostgresItems.rows(Orders.self, from: connection).items.count == orders.count)
    }
}
