import Foundation
import ListServiceClient
import Observation

/// A real server process for a test and a client of it; the process ends with the test.
final class RunningService: Sendable {
    let process: Process
    let port: Int
    let client: ListServiceClient

    init(
        _ arguments: [String] = ["--in-memory"], reconnect: ReconnectPolicy = ReconnectPolicy(initialDelay: 0.2, maximumDelay: 1),
        tokenProvider: (@Sendable () async throws -> String?)? = nil
    ) throws {
        let (process, port, _, _) = try startServer(["--no-access-log"] + arguments)
        self.process = process
        self.port = port
        self.client = ListServiceClient(
            baseURL: Self.url(port), display: Display(locale: "en-US", timeZone: "UTC"), reconnect: reconnect, tokenProvider: tokenProvider)
    }

    /// Starts one off the cooperative pool and the main actor (starting waits on the
    /// process's log), so that no other test's live lists wait for it.
    static func start(
        _ arguments: [String] = ["--in-memory"], reconnect: ReconnectPolicy = ReconnectPolicy(initialDelay: 0.2, maximumDelay: 1),
        tokenProvider: (@Sendable () async throws -> String?)? = nil
    ) async throws -> RunningService {
        try await blocking { try RunningService(arguments, reconnect: reconnect, tokenProvider: tokenProvider) }
    }

    static func url(_ port: Int) -> URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// Runs `work`, which blocks (a socket, a process), on a thread of its own: never on the
/// main actor, whose live lists would wait, nor on the cooperative pool (two threads here).
func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// Waits until `condition` holds, checking every 20 ms for at most `seconds`; whether it held.
/// The default is generous: in the whole suite on two cores, tests that block threads of the
/// cooperative pool (sockets, processes, PostgreSQL) can hold up a client's requests for many
/// seconds; a condition that holds returns at once.
@MainActor
func eventually(within seconds: Double = 60, _ condition: @MainActor () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return await condition()
}

/// Whether one observation fired: set from `withObservationTracking`'s `onChange`.
final class ObservationFlag: @unchecked Sendable {
    // @unchecked: `fired` is read and written under `lock` only.
    private let lock = NSLock()
    private var fired = false

    var hasFired: Bool { lock.withLock { fired } }

    /// A flag that fires when anything `read` reads changes.
    @MainActor
    static func tracking(_ read: @MainActor () -> Void) -> ObservationFlag {
        let flag = ObservationFlag()
        withObservationTracking(read) { flag.lock.withLock { flag.fired = true } }
        return flag
    }
}

/// Whether `list` shows exactly what a fresh `GET` of `query` answers: rows, total, counts
/// and sections.
@MainActor
func matchesFreshPage<Query: ListQuery>(_ list: LiveList<Query.Row>, _ query: Query, client: ListServiceClient) async -> Bool {
    guard let page = try? await client.page(query) else { return false }
    return list.state == .live && list.rows.map(\.row) == page.items && list.total == page.total && list.counts == page.counts
        && list.formattedCounts == page.formattedCounts && list.sections == (page.sections ?? [])
}
