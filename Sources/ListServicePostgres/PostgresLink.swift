import Foundation
import ListService

/// A connection to the database that is made again when lost: at most once per backoff
/// interval (100 ms, doubling to 5 s while attempts fail), so a database that is down costs a
/// refused attempt, not a pile-up of them. Used by one thread at a time (its owner's).
final class PostgresLink {
    private let connectionString: String
    private let status: ReplicationStatus
    private let log: ServiceLog
    /// What the connection is for, in log lines (`writer`, `listener`).
    private let role: String
    private var current: PostgresConnection?
    private var hasConnected = false
    private var delay: Duration = PostgresLink.firstDelay
    private var nextAttempt = ContinuousClock.now
    private var lastFailure = ""

    static let firstDelay: Duration = .milliseconds(100)
    static let longestDelay: Duration = .seconds(5)

    init(connectionString: String, status: ReplicationStatus, log: ServiceLog, role: String) {
        self.connectionString = connectionString
        self.status = status
        self.log = log
        self.role = role
    }

    /// The connection, made again if it was lost and the backoff allows; else the last error.
    func connection() throws(PostgresError) -> PostgresConnection {
        if let current { return current }
        let now = ContinuousClock.now
        guard now >= nextAttempt else {
            throw PostgresError(message: "database unreachable, next attempt in \(nextAttempt - now): \(lastFailure)")
        }
        do {
            let made = try PostgresConnection(connectionString)
            // Every statement here is a short one; JIT compiling one that the planner
            // misjudges as costly took 100 ms per read of the log (measured, RESULTS.md §23).
            try made.execute("SET jit = off")
            current = made
            delay = Self.firstDelay
            if hasConnected {
                status.reconnects.add(1, ordering: .relaxed)
                log.line("level=info event=database-reconnected connection=\(role)")
            }
            hasConnected = true
            return made
        } catch {
            lastFailure = error.message
            nextAttempt = now + delay
            delay = min(delay * 2, Self.longestDelay)
            throw error
        }
    }

    /// Forgets the connection if a failed statement left it broken; the next use reconnects.
    func dropIfBroken() {
        if let current, !current.isConnected {
            self.current = nil
            log.line("level=warning event=database-connection-lost connection=\(role)")
        }
    }

    /// Forgets the connection whatever its state (the listener's, after a failed wait).
    func drop() { current = nil }
}
