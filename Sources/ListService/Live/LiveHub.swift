import Basics
import Dispatch
import Foundation
import Synchronization

/// Limits and timings of live lists.
package struct LiveConfiguration: Sendable {
    /// A comment goes to a stream after this long without events.
    package var heartbeat: Duration = .seconds(15)
    /// Streams the process holds at most (each is a connection too).
    package var maxStreams = 10_000
    /// Streams one session holds at most; a client that names no session is held to it per address.
    package var maxStreamsPerSession = 8
    /// Lists one multiplexed stream (`GET /live`) carries at most.
    package var maxListsPerStream = 32
    /// Unsent bytes past which a stream's events are dropped until it drains (then a `reset`).
    package var maxUnsentBytes = 256 * 1024
    /// Encoded events kept per live list for replay on reconnect.
    package var replayEvents = 64
    /// How long a live list nobody watches is kept up to date, so a quick reconnect replays.
    package var linger: Duration = .seconds(30)
    /// The reconnect delay sent to clients, before jitter (up to as much again).
    package var retryMilliseconds = 2_000
    /// A list sends at most one event per interval: under a flood of writes, the changes of
    /// that time arrive as one event, and writers keep the processor (a quiet list's first
    /// change goes out at once).
    package var minimumEventInterval: Duration = .milliseconds(20)
    /// How far the interval stretches while the processor is saturated (`LivePacing`).
    package var maximumEventInterval: Duration = .milliseconds(250)
    /// How long one step of a refresh round refreshes lists before the executor may send
    /// their events (at least one list a step). One list a step made no list's events wait
    /// for another's refresh but woke each client for every few events; 150 µs measured 10%
    /// better at the median stream and 15% at the 99th percentile (benchmarks/RESULTS.md §45).
    package var refreshStep: Duration = .microseconds(150)
    /// How one event's bytes reach many subscribers: one by one, unless the front door has a
    /// faster way (the HTTP binding hands them to each event loop once:
    /// `ServiceRoutes.liveBroadcast`). Given when the service is opened.
    package var broadcast: LiveBroadcast = { bytes, subscribers, written in
        for subscriber in subscribers { subscriber.send(bytes) }
        written()
    }

    package init() {}
}

/// Runs live lists' work in order, one job after another: a job is `step`, run again while it
/// returns true (a round of refreshes takes a few lists a step, `refreshStep`). Between steps
/// the executor may do other work: an event loop sends what the step wrote (`LoopExecutor`).
package typealias LiveExecutor = @Sendable (_ step: @escaping @Sendable () -> Bool) -> Void

/// Everything live lists share: the executors their events are computed on (one at a time, in
/// commit order), the event sequence and the epoch tokens carry, the caps, the counters,
/// and a timer for heartbeats, time-driven refreshes and lingering lists.
package final class LiveHub: Sendable {
    package let configuration: LiveConfiguration
    package let metrics = LiveMetrics()
    /// How often a list may send an event, given the processor's load and the writers waiting.
    package let pacing: LivePacing
    /// Distinguishes this process's tokens from those of an earlier run; among replicas of
    /// one database, the database's (then a token is good on every replica).
    package let epoch: String
    /// Whether tokens are shared by replicas: versions then come from log positions.
    let isShared: Bool
    /// Where the timer runs (heartbeats, dropping closed streams and idle lists).
    let queue = DispatchQueue(label: "listservice.live")
    /// Where lists are brought up to date: one serial executor per core (a dispatch queue, or
    /// an event loop once the server gives its own, `runUpdates(on:)`). A list is always on
    /// the executor its display context picks, so its events keep commit order, and a row
    /// changed for many lists of one locale and zone is formatted once, on one executor.
    private let executors: Locked<[LiveExecutor]>
    private let sequence = Atomic<UInt64>(0)
    /// Per collection: what the timer does each tick (heartbeats, expiry, dropping closed streams).
    private let sweepers = Locked<[@Sendable (ContinuousClock.Instant) -> Void]>([])
    private let streams = Locked<Streams>(Streams())
    private let timer: Locked<any DispatchSourceTimer>
    private let isStopped = Atomic<Bool>(false)

    private struct Streams {
        var total = 0
        /// Streams per caller (`LiveLists.caller(session:address:)`).
        var byCaller: [String: Int] = [:]
    }

    /// `sharedEpoch`: the database's epoch when replicas share one (see `isShared`).
    package init(configuration: LiveConfiguration = LiveConfiguration(), sharedEpoch: String? = nil) {
        self.configuration = configuration
        isShared = sharedEpoch != nil
        pacing = LivePacing(minimum: configuration.minimumEventInterval, maximum: configuration.maximumEventInterval)
        executors = Locked(
            (0..<max(1, min(8, UsableCores.count))).map { index in
                let queue = DispatchQueue(label: "listservice.live.\(index)")
                return { step in queue.async { while step() {} } }
            })
        epoch = sharedEpoch ?? String(UInt32.random(in: 1...UInt32.max), radix: 36)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let sweepers = self.sweepers
        timer.setEventHandler {
            let now = ContinuousClock.now
            for sweep in sweepers.withLock({ $0 }) { sweep(now) }
        }
        let tick = min(1.0, Double(configuration.heartbeat.components.seconds) / 3)
        timer.schedule(deadline: .now() + tick, repeating: max(0.05, tick))
        timer.resume()
        self.timer = Locked(timer)
    }

    deinit { timer.withLock { $0.cancel() } }

    /// Brings lists up to date on `executors` from now on (the server's event loops, so that
    /// a list's events go out with its step, before the next lists are refreshed): given
    /// before any list is made, since a list's jobs must stay on one executor.
    package func runUpdates(on executors: [LiveExecutor]) {
        guard !executors.isEmpty else { return }
        self.executors.withLock { $0 = executors }
    }

    /// The executor (and its index, the same for the same executor) of lists whose display
    /// context hashes to `seed`.
    func executor(for seed: UInt) -> (index: Int, run: LiveExecutor) {
        executors.withLock { executors in
            let index = Int(seed % UInt(executors.count))
            return (index, executors[index])
        }
    }

    /// Gives `step` to `executor` once `delay` nanoseconds have passed (at once when 0).
    func run(_ step: @escaping @Sendable () -> Bool, on executor: @escaping LiveExecutor, after delay: UInt64) {
        guard delay > 0 else { return executor(step) }
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(min(delay, UInt64(Int.max))))) { executor(step) }
    }

    /// Runs `work` once, as a job of one step, on the executor of lists whose display hashes to
    /// `seed` (after `delay` nanoseconds).
    func run(forListsOf seed: UInt, after delay: UInt64 = 0, _ work: @escaping @Sendable () -> Void) {
        run(
            {
                work()
                return false
            }, on: executor(for: seed).run, after: delay)
    }

    /// Waits until every update queued so far has been sent (tests, benchmarks; never on an
    /// executor's own thread).
    package func settle() {
        for run in executors.withLock({ $0 }) {
            let done = DispatchSemaphore(value: 0)
            run {
                done.signal()
                return false
            }
            done.wait()
        }
    }

    /// The version of a list's next event (`previous`: its last; nil for its first). On one
    /// process, the next of one process-wide sequence, so a version names one event of one
    /// list. Among replicas, the log position its window was read at, shifted, plus the
    /// events made since at that position (rows re-formatted as time passed): a window read
    /// at the same position has the same version on every replica, so a client a load
    /// balancer moves resumes where it was.
    func version(after previous: UInt64?, at position: UInt64) -> UInt64 {
        guard isShared else { return sequence.add(1, ordering: .relaxed).newValue }
        let base = position << 16
        guard let previous, previous >= base else { return base }
        return previous + 1
    }

    /// The `retry:` line for a new stream, jittered so reconnect storms spread out.
    func retryLine() -> [UInt8] {
        LiveEvent.retry(milliseconds: configuration.retryMilliseconds + Int.random(in: 0...configuration.retryMilliseconds))
    }

    /// Sends one event to many streams, the way the configuration says (the HTTP binding's:
    /// one task per event loop); `written` runs once it is written to all of them.
    func broadcast(_ bytes: [UInt8], to subscribers: [any LiveSubscriber], written: @escaping @Sendable () -> Void) {
        guard !subscribers.isEmpty else { return }
        configuration.broadcast(bytes, subscribers, written)
    }

    func addSweeper(_ sweep: @escaping @Sendable (ContinuousClock.Instant) -> Void) { sweepers.withLock { $0.append(sweep) } }

    // MARK: caps

    /// Why a stream may not open.
    package enum Refusal: Error, Sendable {
        case tooManyForSession(limit: Int)
        case tooManyForServer(limit: Int)
        case shuttingDown
    }

    /// Takes a place for a new stream under both caps; `prune` drops streams whose clients
    /// left (run once when a cap seems reached, since closes are noticed by the timer).
    func reserve(caller: String?, prune: () -> Void) throws(Refusal) -> LiveReservation {
        guard !isStopped.load(ordering: .acquiring) else { throw .shuttingDown }
        var refusal = tryReserve(caller: caller)
        if refusal != nil {
            prune()
            refusal = tryReserve(caller: caller)
        }
        if let refusal {
            metrics.rejections.add(1, ordering: .relaxed)
            throw refusal
        }
        return LiveReservation(hub: self, caller: caller)
    }

    private func tryReserve(caller: String?) -> Refusal? {
        streams.withLock { streams in
            guard streams.total < configuration.maxStreams else { return .tooManyForServer(limit: configuration.maxStreams) }
            if let caller {
                guard streams.byCaller[caller, default: 0] < configuration.maxStreamsPerSession else {
                    return .tooManyForSession(limit: configuration.maxStreamsPerSession)
                }
                streams.byCaller[caller, default: 0] += 1
            }
            streams.total += 1
            metrics.streamsOpen.store(streams.total, ordering: .relaxed)
            return nil
        }
    }

    func release(caller: String?) {
        streams.withLock { streams in
            streams.total -= 1
            if let caller {
                let left = streams.byCaller[caller, default: 1] - 1
                streams.byCaller[caller] = left > 0 ? left : nil
            }
            metrics.streamsOpen.store(streams.total, ordering: .relaxed)
        }
    }

    // MARK: stopping

    /// Sends every stream a jittered `retry:` and ends it (at shutdown, before the server
    /// closes connections); no stream opens afterwards.
    package func stop() {
        isStopped.store(true, ordering: .releasing)
        stoppers.withLock { $0 }.forEach { $0() }
    }

    private let stoppers = Locked<[@Sendable () -> Void]>([])

    func addStopper(_ stop: @escaping @Sendable () -> Void) { stoppers.withLock { $0.append(stop) } }
}

extension LiveHub {
    /// The hub of engines made outside a service (tests, tools).
    package static let detached = LiveHub()
}
