import Basics
import Foundation
import Glibc
import ListService
import Synchronization

/// Tells the replica when other replicas' changes may be waiting: on its own thread, it
/// `LISTEN`s on the channel appends notify and wakes the replica on each notification, and
/// once a second anyway (a notification sent while the connection was down is not delivered
/// later). It also trims the change log now and then, keeping `retainedChanges` behind the head.
final class PostgresWatcher: @unchecked Sendable {
    // Invariant: after `start`, every member is used only by the watcher's own thread.
    private let link: PostgresLink
    private let retainedChanges: Int
    private let trimInterval: Duration
    private let log: ServiceLog
    private let wake: @Sendable () -> Void
    private var isListening = false
    private var lastTrim = ContinuousClock.now
    /// Set by `stop` (from any thread): the thread ends after its current wait.
    let isStopped = Atomic<Bool>(false)
    /// The watcher thread's name as the system shows it (at most 15 bytes).
    static let threadName = "database-watch"

    init(link: PostgresLink, retainedChanges: Int, trimInterval: Duration, log: ServiceLog, wake: @escaping @Sendable () -> Void) {
        self.link = link
        self.retainedChanges = retainedChanges
        self.trimInterval = trimInterval
        self.log = log
        self.wake = wake
    }

    func start() {
        // Named from inside the thread (see `ThreadName`).
        let thread = Thread { [self] in
            ThreadName.set(Self.threadName)
            while !isStopped.load(ordering: .relaxed) { watchOnce() }
        }
        thread.start()
    }

    /// Waits up to a second for notifications, then wakes the replica (either way) and trims
    /// the log when due.
    private func watchOnce() {
        do {
            let connection = try link.connection()
            if !isListening {
                try connection.execute("LISTEN \(PostgresSchema.changesChannel)")
                isListening = true
            }
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 1000) > 0 { _ = try connection.notifications() }
            wake()
            if ContinuousClock.now - lastTrim >= trimInterval {
                lastTrim = .now
                try trim(connection)
            }
        } catch {
            link.drop()
            isListening = false
            wake()  // the replica's own read finds the database down and reports it
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// Drops the log's changes more than `retainedChanges` behind its head, and the answers
    /// no replica replays any more (past `AnswerLedger.lifetime`).
    private func trim(_ connection: PostgresConnection) throws(PostgresError) {
        let trimmed = try connection.execute(
            "DELETE FROM change_log WHERE position <= (SELECT position FROM log_head) - $1", [String(retainedChanges)]
        ).affected
        if trimmed > 0 { log.line("level=info event=change-log-trimmed changes=\(trimmed) retained=\(retainedChanges)") }
        let expired = try connection.execute(
            "DELETE FROM request_answers WHERE recorded_at < clock_timestamp() - $1::bigint * interval '1 millisecond'",
            [String(AnswerLedger.lifetime)]
        ).affected
        if expired > 0 { log.line("level=info event=answers-expired answers=\(expired)") }
    }
}
