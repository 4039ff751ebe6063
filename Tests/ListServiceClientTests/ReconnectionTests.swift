import Foundation
import Glibc
import ListServiceClient
import Testing

/// What a client must ride out: a restart, a full server, an expired token.
@Suite(.serialized) struct ReconnectionTests {
    @MainActor @Test func aRestartUnderAnOpenListReconnectsAndBringsTheChangeMadeMeanwhile() async throws {
        try await withTemporaryDirectory { directory in
            let first = try await RunningService.start(["--state", directory])
            let port = first.port
            let client = first.client
            let query = UserQuery(sort: .taps, order: .descending, limit: 3, display: Display(locale: "en-US", timeZone: "UTC"))
            let list = client.live(query)
            #expect(await eventually { list.state == .live })

            let process = first.process
            try await blocking {
                process.terminate()
                process.waitUntilExit()
            }
            #expect(await eventually { list.state == .reconnecting })
            let (second, _, _, _) = try await blocking { try startServer(["--no-access-log", "--state", directory, "--port", "\(port)"]) }
            defer { if second.isRunning { second.terminate() } }
            // The change made while the client was away: the fourth person overtakes the top three.
            let fourth = try #require(try await client.page(UserQuery(sort: .taps, order: .descending, limit: 4)).items.last)
            for _ in 0..<5 { try await client.users.tap(fourth.id) }
            #expect(await eventually { await matchesFreshPage(list, query, client: client) })
            #expect(list.rows.first?.id == fourth.id)
            #expect(list.state == .live)
        }
    }

    /// A new, empty directory for `body`, removed afterwards whatever happens.
    @MainActor func withTemporaryDirectory(_ body: (String) async throws -> Void) async throws {
        let path = NSTemporaryDirectory() + "listservice-client-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await body(path)
    }

    @MainActor @Test func aFullServersRetryAfterIsWaitedOut() async throws {
        let service = try await RunningService.start(["--in-memory", "--max-live-streams", "1"])
        // Another client holds the only stream.
        let port = service.port
        let other = try #require(
            try await blocking { () -> Int32? in
                guard let socket = connectSocket(port: port) else { return nil }
                let request = "GET /users/live HTTP/1.1\r\nHost: localhost\r\n\r\n"
                _ = request.withCString { send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                return socket
            })

        let list = service.client.live(UserQuery(limit: 2))
        #expect(await eventually { list.state == .reconnecting })
        let refusedAt = Date()
        close(other)
        #expect(await eventually(within: 60) { list.state == .live })
        // The service asked for 5 s (`Retry-After: 5`); the client came back no sooner.
        #expect(Date().timeIntervalSince(refusedAt) >= 4.5)
        #expect(list.rows.count == 2)
    }

    @MainActor @Test func aStreamThatFallsSilentIsOpenedAgain() async throws {
        let service = try await RunningService.start(
            ["--in-memory", "--live-heartbeat", "1"], reconnect: ReconnectPolicy(initialDelay: 0.2, maximumDelay: 1, silenceTimeout: 2.5))
        let query = UserQuery(sort: .taps, order: .descending, limit: 3, display: Display(locale: "en-US", timeZone: "UTC"))
        let list = service.client.live(query)
        #expect(await eventually { list.state == .live })
        // Heartbeats every second keep a quiet list's stream open past its silence timeout.
        try await Task.sleep(nanoseconds: 3_500_000_000)
        #expect(list.state == .live)
        // A peer that stops answering (no FIN, no heartbeat): the stream is given up and opened again.
        kill(service.process.processIdentifier, SIGSTOP)
        let silenced = await eventually(within: 60) { list.state == .reconnecting }
        kill(service.process.processIdentifier, SIGCONT)
        #expect(silenced)
        let fourth = try #require(try await service.client.page(UserQuery(sort: .taps, order: .descending, limit: 4)).items.last)
        for _ in 0..<5 { try await service.client.users.tap(fourth.id) }
        #expect(await eventually { await matchesFreshPage(list, query, client: service.client) })
    }

    @MainActor @Test func aRefusedListFailsWithItsProblem() async throws {
        let service = try await RunningService.start()
        let list = service.client.live(UserQuery(limit: 2, display: Display(locale: "qq-QQ-nonsense", timeZone: "UTC")))
        #expect(await eventually { if case .failed = list.state { true } else { false } })
        guard case .failed(let problem) = list.state else { return }
        #expect(problem.status == 400 && problem.parameter == "locale")
    }

    @Test func a401AsksTheTokenProviderOnceMore() async throws {
        let plain = try await RunningService.start()
        let port = plain.port
        let reply = try await blocking { httpRequest(port: port, "POST", "/auth/demo", json: #"{"sub": "c-0002", "role": "customer"}"#) }
        let token = try #require(reply.json["token"] as? String)
        let calls = Calls()
        let client = ListServiceClient(
            baseURL: RunningService.url(plain.port),
            tokenProvider: { calls.next() == 1 ? "expired.token.value" : token })
        let everything = try await plain.client.page(OrderQuery(limit: 1))
        let own = try await client.page(OrderQuery(limit: 1))
        #expect(calls.count == 2)
        #expect(own.total > 0 && own.total < everything.total)

        let refused = ListServiceClient(baseURL: RunningService.url(plain.port), tokenProvider: { "never.valid.token" })
        await #expect(throws: ListServiceError.self) { try await refused.page(OrderQuery(limit: 1)) }
        do {
            _ = try await refused.page(OrderQuery(limit: 1))
        } catch {
            #expect(error.status == 401 && error.code == "unauthorized")
        }
    }

    /// Counts the token provider's calls.
    final class Calls: @unchecked Sendable {
        // @unchecked: `count` is read and written under `lock` only.
        private let lock = NSLock()
        private var calls = 0

        var count: Int { lock.withLock { calls } }

        func next() -> Int {
            lock.withLock {
                calls += 1
                return calls
            }
        }
    }

    @Test func aWriteWhoseAnswerWasLostIsSentAgainAndDoneOnce() async throws {
        let service = try await RunningService.start()
        let proxy = try AnswerLosingProxy(serverPort: service.port)
        let client = ListServiceClient(baseURL: RunningService.url(proxy.port))
        let created = try await client.orders.create(
            .init(
                customerName: "Lost Answer", currency: "EUR", items: [.init(name: "Mug", quantity: 1, unitPrice: 9)],
                shippingAddress: ShippingAddress(street: "1 Main St", city: "Oslo", postalCode: "0154", country: "NO", isResidential: true))
        )
        #expect(proxy.forwarded == 2 && proxy.lost == 1)
        let found = try await service.client.page(OrderQuery(search: "Lost Answer"))
        #expect(found.total == 1 && found.items.first?.id == created.id)
    }

    @Test func aRefusalCarriesTheProblem() async throws {
        let service = try await RunningService.start()
        do {
            _ = try await service.client.orders.complete("o-000001", ifMatch: "0000000000000000")
            Issue.record("a stale If-Match was accepted")
        } catch {
            #expect(error.status == 412)
            #expect(!error.code.isEmpty && !error.detail.isEmpty)
        }
        do {
            _ = try await service.client.tasks.create(.init(title: ""))
            Issue.record("an empty task was accepted")
        } catch {
            #expect(error.status == 422 || error.status == 400)
            #expect(!error.errors.isEmpty)
        }
    }
}
