import Dispatch
import Foundation
import Glibc
import Basics
import Testing

@testable import ListService
@testable import ListServicePostgres

/// Replicas of the real server over one PostgreSQL (started by the test): changes reach every
/// replica and its live streams, conflicts have one winner, writers on every replica converge,
/// and neither a killed replica nor a stopped database loses or invents an acknowledged write.
@Suite(.serialized, Prerequisite.needs(TemporaryPostgres.isAvailable, "PostgreSQL"))
struct ReplicaTests {
    /// Waits until `condition` holds, up to `seconds`.
    func eventually(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    func pendingOrderIDs(_ replica: Replica, count: Int) -> [String] {
        let items = replica.request("GET", "/orders?filter=pending&limit=\(count)").json["items"] as? [[String: Any]] ?? []
        return items.compactMap { $0["id"] as? String }
    }

    /// Every replica applied the database's whole log.
    func converged(_ replicas: [Replica], database: PostgresConnection) -> Bool {
        guard let head = try? database.execute("SELECT position FROM log_head").firstValue.flatMap({ Int($0) }) else { return false }
        return replicas.allSatisfy { $0.metric("listservice_changelog_position") == head }
    }

    @Test func aWriteOnOneReplica_isSeenOnTheOthers_andReachesTheirLiveStreams() throws {
        let database = try TemporaryPostgres()
        let a = try Replica(database: database.connectionString)
        let b = try Replica(database: database.connectionString), c = try Replica(database: database.connectionString)
        let window = "/orders/live?filter=pending&limit=5"
        let streams = try [b, c].map { try #require($0.live(window)) }
        for stream in streams { #expect(stream.waitFor("event: snapshot")) }
        let id = try #require(pendingOrderIDs(a, count: 1).first)
        let written = a.request("PATCH", "/orders/\(id)", json: #"{"customerName":"Written On A"}"#)
        #expect(written.status == 200)
        for replica in [b, c] {
            #expect(eventually(seconds: 2) { replica.request("GET", "/orders/\(id)").json["customerName"] as? String == "Written On A" })
        }
        for stream in streams {
            #expect(stream.waitFor("Written On A"), "the change reached the replica's live stream")
            #expect(stream.text.contains("event: delta"))
        }
        // The same list has the same ETag on every replica.
        let etags = [a, b, c].map { $0.request("GET", "/orders?filter=pending&limit=5").headers["etag"] }
        #expect(etags[0] != nil && Set(etags).count == 1)
    }

    /// Tokens come from the change log's position: a client a load balancer moves to another
    /// replica resumes with its `Last-Event-ID`, gets neither a reset nor a snapshot, and the
    /// next change arrives as a delta on the version it holds.
    @Test func aLiveClientMovedToAnotherReplica_resumesWhereItWas() throws {
        let database = try TemporaryPostgres()
        let a = try Replica(database: database.connectionString), b = try Replica(database: database.connectionString)
        let window = "/orders/live?filter=pending&limit=5"
        let ids = pendingOrderIDs(a, count: 2)
        let onA = try #require(a.live(window))
        #expect(onA.waitFor("event: snapshot"))
        #expect(b.request("PATCH", "/orders/\(ids[0])", json: #"{"customerName":"Before The Move"}"#).status == 200)
        #expect(onA.waitFor("Before The Move"))
        let token = try #require(onA.lastEventID)
        let moved = try #require(b.live(window, lastEventID: token))
        #expect(moved.waitFor("retry:"))
        #expect(!moved.waitFor("event: ", seconds: 1), "nothing to catch up on: no reset, no snapshot")
        #expect(a.request("PATCH", "/orders/\(ids[1])", json: #"{"customerName":"After The Move"}"#).status == 200)
        #expect(moved.waitFor("After The Move"))
        let v = try #require(token.split(separator: "-").last)
        #expect(
            moved.text.contains("event: delta") && moved.text.contains("\"base\":\(v)"), "the delta applies to the version the client holds"
        )
        #expect(!moved.text.contains("event: reset"))
        // A token of another database (or an earlier run of a single process) still gets a reset.
        let stranger = try #require(b.live(window, lastEventID: "zzzz-\(v)"))
        #expect(stranger.waitFor("event: reset"))
    }

    @Test func conflictingWritesThroughTwoReplicas_haveOneWinner_andEveryReplicaAgrees() throws {
        let database = try TemporaryPostgres()
        let a = try Replica(database: database.connectionString), b = try Replica(database: database.connectionString)
        let staleBatches = { (a.metric("listservice_stale_batches_total") ?? 0) + (b.metric("listservice_stale_batches_total") ?? 0) }
        // Rounds of twelve orders each completed on one replica and cancelled on the other at
        // once, until one replica has had to save a batch again over the other's change (the
        // path this test is for); two writes of a round need not overlap, so a round alone
        // may not get there.
        var ids: [String] = []
        for _ in 0..<5 where ids.isEmpty || staleBatches() == 0 {
            let round = pendingOrderIDs(a, count: 12)
            #expect(round.count == 12)
            let statuses = Locked<[String: [Int]]>([:])
            DispatchQueue.concurrentPerform(iterations: round.count * 2) { index in
                let id = round[index / 2]
                let (replica, action) = index % 2 == 0 ? (a, "complete") : (b, "cancel")
                let status = replica.request("POST", "/orders/\(id)/\(action)").status
                statuses.withLock { $0[id, default: []].append(status) }
            }
            for id in round {
                #expect(statuses.withLock { $0[id] ?? [] }.sorted() == [200, 409], "\(id): exactly one of complete and cancel wins")
            }
            ids += round
        }
        // If-Match: two replicas change the same version; one wins, the other gets 412.
        let id = ids[0]
        let etag = try #require(a.request("GET", "/orders/\(id)").headers["etag"])
        let answers = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let replica = index == 0 ? a : b
            let status = replica.request(
                "PATCH", "/orders/\(id)", headers: ["If-Match": etag], json: #"{"customerName":"Replica \#(index)"}"#
            )
            .status
            answers.withLock { $0.append(status) }
        }
        #expect(answers.withLock { $0 }.sorted() == [200, 412])
        let connection = try PostgresConnection(database.connectionString)
        #expect(eventually { converged([a, b], database: connection) })
        for id in ids {
            let seen = [a, b].map { $0.request("GET", "/orders/\(id)").body }
            #expect(seen[0] == seen[1], "\(id): the replicas agree")
        }
        #expect(staleBatches() > 0)
    }

    @Test func manyWritersOnEveryReplica_leaveEveryReplicaEqual_toAFreshOne() throws {
        let database = try TemporaryPostgres()
        let replicas = try (0..<3).map { _ in try Replica(database: database.connectionString) }
        let ids = pendingOrderIDs(replicas[0], count: 15)
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 9) { writer in
            let replica = replicas[writer % 3]
            for round in 0..<30 {
                let reply: HTTPReply
                if round % 10 == 9 {
                    reply = replica.request("POST", "/orders", json: Order.validCreateBody)
                } else {
                    let id = ids[(writer * 7 + round) % ids.count]
                    reply = replica.request("PATCH", "/orders/\(id)", json: #"{"customerName":"Writer \#(writer) Round \#(round)"}"#)
                }
                if ![200, 201].contains(reply.status) { failures.withLock { $0.append("\(reply.status)") } }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let connection = try PostgresConnection(database.connectionString)
        #expect(eventually { converged(replicas, database: connection) })
        let fresh = try Replica(database: database.connectionString)
        let list = "/orders?sort=customerName&limit=100"
        let expected = fresh.request("GET", list).body
        #expect(!expected.isEmpty)
        for replica in replicas {
            #expect(replica.request("GET", list).body == expected, "a replica's list equals a fresh replica's")
            #expect(replica.request("GET", "/orders?limit=1").json["total"] as? Int == SmallData.orderCount + 9 * 3)
        }
    }

    @Test func aReplicaKilledMidStream_losesNoAcknowledgedWrite_andCatchesUpOnRestart() throws {
        let database = try TemporaryPostgres()
        let a = try Replica(database: database.connectionString), b = try Replica(database: database.connectionString)
        let acknowledged = Locked<[String]>([])
        let writer = Thread {
            while true {
                let reply = a.request("POST", "/orders", json: Order.validCreateBody)
                guard reply.status == 201, let location = reply.headers["location"] else { break }
                acknowledged.withLock { $0.append(location) }
            }
        }
        writer.start()
        #expect(eventually { acknowledged.withLock { $0.count } >= 40 })
        a.kill(signal: SIGKILL)
        let created = acknowledged.withLock { $0 }
        let connection = try PostgresConnection(database.connectionString)
        let stored = Set(try connection.execute("SELECT id FROM items_orders WHERE item IS NOT NULL").rows.compactMap { $0.first ?? nil })
        #expect(created.allSatisfy { stored.contains(String($0.dropFirst("/orders/".count))) }, "every acknowledged write is committed")
        #expect(eventually { converged([b], database: connection) })
        #expect(created.allSatisfy { b.request("GET", $0).status == 200 }, "and on the surviving replica")
        let restarted = try Replica(database: database.connectionString)
        #expect(eventually { converged([restarted], database: connection) })
        #expect(
            restarted.request("GET", "/orders?limit=1").json["total"] as? Int == b.request("GET", "/orders?limit=1").json["total"] as? Int)
    }

    /// A client writing under `Idempotency-Key`s to a replica killed with -9 retries the
    /// unanswered write at another replica: every key ends as exactly one order, and a retry
    /// of an answered key there gets its first answer.
    @Test func aReplicaKilledMidWrite_theRetryAtAnotherReplica_leavesEachKeyOneOrder() throws {
        let database = try TemporaryPostgres()
        let a = try Replica(database: database.connectionString), b = try Replica(database: database.connectionString)
        @Sendable func body(_ key: Int) -> String { Order.validCreateBody.replacingOccurrences(of: "Zoë Kim", with: "Retry \(key)") }
        let progress = Locked<(sent: Int, answered: [Int: String])>((0, [:]))
        let writer = Thread {
            for key in 1... {
                progress.withLock { $0.sent = key }
                let reply = a.request("POST", "/orders", headers: ["Idempotency-Key": "key-\(key)"], json: body(key))
                guard reply.status == 201, let location = reply.headers["location"] else { break }
                progress.withLock { $0.answered[key] = location }
            }
        }
        writer.start()
        #expect(eventually { progress.withLock { $0.answered.count } >= 30 })
        a.kill(signal: SIGKILL)
        #expect(eventually { progress.withLock { $0.sent > $0.answered.count } })
        let (sent, answered) = progress.withLock { $0 }
        for key in 1...sent where answered[key] == nil {
            #expect(b.request("POST", "/orders", headers: ["Idempotency-Key": "key-\(key)"], json: body(key)).status == 201)
        }
        let replay = b.request("POST", "/orders", headers: ["Idempotency-Key": "key-1"], json: body(1))
        #expect(replay.headers["location"] == answered[1] && replay.headers["idempotent-replayed"] == "true")
        let connection = try PostgresConnection(database.connectionString)
        let counts = try connection.execute(
            "SELECT count(*), count(DISTINCT item->>'customerName') FROM items_orders WHERE item->>'customerName' LIKE 'Retry %'"
        ).rows.first
        #expect(counts == ["\(sent)", "\(sent)"], "\(sent) keys, one order each")
    }

    @Test func aStoppedDatabase_refusesWrites_keepsReads_thenWritesResumeAndReplicasConverge() throws {
        let database = try TemporaryPostgres()
        let a = try Replica(database: database.connectionString), b = try Replica(database: database.connectionString)
        let id = try #require(pendingOrderIDs(a, count: 1).first)
        let acknowledged = Locked<[String]>([])
        let isWriting = Locked(true)
        let writer = Thread {
            while isWriting.withLock({ $0 }) {
                let reply = a.request("POST", "/orders", json: Order.validCreateBody)
                if reply.status == 201, let location = reply.headers["location"] { acknowledged.withLock { $0.append(location) } }
                usleep(2_000)
            }
        }
        writer.start()
        #expect(eventually { acknowledged.withLock { $0.count } >= 10 })
        try database.stop()
        let refused = a.request("PATCH", "/orders/\(id)", json: #"{"customerName":"While Down"}"#)
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] != nil)
        #expect(a.request("GET", "/orders/\(id)").status == 200, "reads go on from memory")
        #expect(eventually { b.request("GET", "/health/ready").status == 503 })
        #expect(String(decoding: b.request("GET", "/health/ready").body, as: UTF8.self).contains("database"))
        try database.start()
        #expect(
            eventually(seconds: 15) { a.request("GET", "/health/ready").status == 200 && b.request("GET", "/health/ready").status == 200 })
        #expect(eventually { acknowledged.withLock { $0.count } >= 20 }, "writes resume")
        isWriting.withLock { $0 = false }
        usleep(100_000)
        #expect(a.request("PATCH", "/orders/\(id)", json: #"{"customerName":"After The Outage"}"#).status == 200)
        let connection = try PostgresConnection(database.connectionString)
        let stored = Set(try connection.execute("SELECT id FROM items_orders WHERE item IS NOT NULL").rows.compactMap { $0.first ?? nil })
        let created = acknowledged.withLock { $0 }
        #expect(
            created.allSatisfy { stored.contains(String($0.dropFirst("/orders/".count))) },
            "no write was acknowledged that is not committed")
        #expect(eventually { converged([a, b], database: connection) })
        #expect(b.request("GET", "/orders/\(id)").json["customerName"] as? String == "After The Outage")
        #expect(a.request("GET", "/orders?limit=1").body == b.request("GET", "/orders?limit=1").body)
        #expect((a.metric("listservice_database_reconnects_total") ?? 0) > 0)
    }
}
