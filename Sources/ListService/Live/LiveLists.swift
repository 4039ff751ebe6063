import Basics
import Foundation

/// A collection's live lists, one per distinct criteria (window, locale and zone included):
/// made when a stream first asks, told of every change after it is durable, dropped when
/// no one has watched for a while.
package final class LiveLists<C: ListCollection>: Sendable {
    private let hub: LiveHub
    private let lists = Locked<[ListCriteria<C>: LiveList<C>]>([:])

    init(hub: LiveHub) { self.hub = hub }

    /// Registers the timer's upkeep and the shutdown for `engine`'s lists (weakly: an engine
    /// dropped in tests takes its lists with it).
    func attach(to engine: CollectionEngine<C>) {
        hub.addSweeper { [weak engine] now in engine.map { $0.live.sweep(now: now, engine: $0) } }
        hub.addStopper { [weak engine] in engine?.live.stop() }
    }

    // MARK: opening

    /// Validates a live request as its list would be, takes a place under the caps (unless
    /// the list goes on a multiplexed stream, which holds one) and finds (or makes) the live
    /// list; the stream joins when `LiveOpening.start` runs.
    func open(
        _ request: ListRequest, session: Session?, purpose: ListPurpose, lastEventID: String?, seat: LiveSeat,
        engine: CollectionEngine<C>
    ) throws(LiveOpenError) -> LiveOpening {
        let criteria: ListCriteria<C>
        do {
            criteria = try ListCriteria<C>(request, now: engine.now, purpose: purpose)
        } catch {
            throw .invalid(error)
        }
        let reservation: LiveReservation
        switch seat {
        case .ownStream:
            do {
                reservation = try hub.reserve(caller: Self.caller(session: session, address: request.clientAddress)) {
                    dropClosedStreams()
                }
            } catch {
                throw .refused(error)
            }
        case .multiplexed: reservation = LiveReservation(hub: hub, caller: nil, isHeld: false)
        }
        let (list, isNew) = try list(for: criteria, request: request, purpose: purpose, engine: engine)
        let resume: LiveList<C>.Resume = lastEventID.map { .after(LiveToken($0)) } ?? .none
        return LiveOpening { subscriber in
            list.join(LiveStream(subscriber: subscriber, session: session, reservation: reservation), resume: resume, isNew: isNew)
        }
    }

    /// Whose cap a stream counts under: its session, else the client's address, so clients
    /// that name no session cannot open streams past the cap by leaving it out.
    static func caller(session: Session?, address: String?) -> String? {
        if let session { return "session " + session.id }
        return address.map { "address " + $0 }
    }

    /// The live list of `criteria`, made now if there is none. It is made under the lock that
    /// `changed` reads the lists under, so a change is either in its first window or seen by it.
    private func list(
        for criteria: ListCriteria<C>, request: ListRequest, purpose: ListPurpose, engine: CollectionEngine<C>
    ) throws(LiveOpenError) -> (LiveList<C>, isNew: Bool) {
        let made = lists.withLock { lists -> Result<(LiveList<C>, Bool), ListServiceError> in
            if let existing = lists[criteria] { return .success((existing, false)) }
            // Lists no one watches linger for quick reconnects; a client cycling through
            // criteria must not pile them up: at the bound, they go at once.
            if lists.count >= hub.configuration.maxStreams {
                let unwatched = lists.filter { !$0.value.isWatched }.map(\.key)
                for key in unwatched { lists[key] = nil }
                hub.metrics.lists.subtract(unwatched.count, ordering: .relaxed)
            }
            do throws(ListServiceError) {
                let list = try LiveList(criteria: criteria, request: request, purpose: purpose, engine: engine, hub: hub)
                lists[criteria] = list
                hub.metrics.lists.add(1, ordering: .relaxed)
                return .success((list, true))
            } catch {
                return .failure(error)
            }
        }
        switch made {
        case .success(let (list, isNew)):
            if isNew { scheduleExpiry(of: list, engine: engine) }
            return (list, isNew)
        case .failure(let error): throw .invalid(error)
        }
    }

    // MARK: changes

    /// After a batch is durable and applied: the lists it touched are brought up to date on
    /// the hub's queue (one event per batch and list). Costs nothing when no one watches.
    func changed(_ effects: [CollectionState<C>.Effect], engine: CollectionEngine<C>) {
        let all = lists.withLock { Array($0.values) }
        guard !all.isEmpty else { return }
        var facts = LiveList<C>.FactsMemo()
        let touched = all.filter { $0.isTouched(by: effects, engine: engine, memo: &facts) && $0.queueRefresh() }
        guard !touched.isEmpty else { return }
        refresh(touched, engine: engine)
    }

    /// Sends `session`'s selection to its streams of these lists.
    func selectionChanged(for session: Session) {
        for list in lists.withLock({ Array($0.values) }) { list.sendSelection(to: session) }
    }

    /// Brings `lists` up to date, each on its display context's executor, in one round per
    /// executor and batch (`LiveRefreshRound`); a list whose last refresh was due less than the
    /// pacing's interval ago waits out the rest.
    private func refresh(_ lists: [LiveList<C>], engine: CollectionEngine<C>) {
        let at = engine.now
        let now = DispatchTime.now().uptimeNanoseconds
        let interval = hub.pacing.interval(now: now)
        var rounds: [(round: LiveRound, run: LiveExecutor, lists: [LiveList<C>])] = []
        var roundIndex: [LiveRound: Int] = [:]  // not generic: hashed without metadata made at run time
        for list in lists {
            let executor = hub.executor(for: list.executorSeed)
            let round = LiveRound(executor: executor.index, delay: list.schedule.delay(now: now, interval: interval))
            if let index = roundIndex[round] {
                rounds[index].lists.append(list)
            } else {
                roundIndex[round] = rounds.count
                rounds.append((round, executor.run, [list]))
            }
        }
        for (round, run, lists) in rounds {
            let job = LiveRefreshRound(lists, engine: engine, at: at, step: hub.configuration.refreshStep)
            hub.run({ job.step() }, on: run, after: round.delay)
        }
    }

    /// Every item was replaced (a bulk import): every list resets.
    func replacedAll(engine: CollectionEngine<C>) {
        refresh(lists.withLock { Array($0.values) }.filter { $0.queueRefresh() }, engine: engine)
    }

    // MARK: upkeep

    /// Heartbeats, closed streams, lists no one watches, and windows whose time is up.
    private func sweep(now: ContinuousClock.Instant, engine: CollectionEngine<C>) {
        let all = lists.withLock { $0 }
        var idle: [ListCriteria<C>] = []
        let wallNow = engine.now
        for (criteria, list) in all {
            if list.sweep(now: now) { idle.append(criteria) }
            if wallNow >= list.validUntil {
                hub.run(forListsOf: list.executorSeed) { [weak self] in self?.expire(list, under: criteria, engine: engine) }
            }
        }
        guard !idle.isEmpty else { return }
        lists.withLock { lists in
            for criteria in idle { lists[criteria] = nil }
            hub.metrics.lists.subtract(idle.count, ordering: .relaxed)
        }
    }

    /// Time-relative criteria or row labels went stale: the window is read and formatted again
    /// under criteria made now (a new month, a new day), and the list is filed under them.
    /// Runs on the list's executor.
    private func expire(_ list: LiveList<C>, under key: ListCriteria<C>, engine: CollectionEngine<C>) {
        let renewed = try? ListCriteria<C>(list.request, now: engine.now, purpose: list.purpose)
        var memo = LiveList<C>.RowMemo()
        var windows = LiveList<C>.WindowMemo()
        list.refresh(engine: engine, at: engine.now, memo: &memo, windows: &windows, criteria: renewed, reformat: true)
        if let renewed, renewed != key {
            lists.withLock { lists in
                guard lists[key] === list, lists[renewed] == nil else { return }
                lists[key] = nil
                lists[renewed] = list
            }
        }
        scheduleExpiry(of: list, engine: engine)
    }

    /// Refreshes `list` at the instant it goes stale (the timer's tick would be up to a second late).
    private func scheduleExpiry(of list: LiveList<C>, engine: CollectionEngine<C>) {
        let until = list.validUntil
        guard until < .distantFuture else { return }
        let delay = max(0, until.timeIntervalSince(engine.now))
        hub.run(forListsOf: list.executorSeed, after: UInt64((min(delay, 1e9) * 1e9).rounded(.up))) {
            [weak self, weak engine, weak list] in
            guard let self, let engine, let list, engine.now >= list.validUntil else { return }
            guard let key = self.lists.withLock({ $0.first { $0.value === list }?.key }) else { return }
            self.expire(list, under: key, engine: engine)
        }
    }

    private func dropClosedStreams() {
        for list in lists.withLock({ Array($0.values) }) { list.dropClosedStreams() }
    }

    private func stop() {
        for list in lists.withLock({ Array($0.values) }) { list.stop() }
    }
}

/// Where a live list's events go: a stream of its own (`GET /{name}/live`, a place under the
/// caps), or a multiplexed stream (`GET /live`) that holds the place for all its lists.
package enum LiveSeat: Sendable {
    case ownStream
    case multiplexed
}

/// Why a live stream could not open: a bad parameter (400, before the stream opens) or a cap.
package enum LiveOpenError: Error, Sendable {
    case invalid(ListServiceError)
    case refused(LiveHub.Refusal)
}

/// A live stream ready to start: `start` joins the subscriber to its list and sends the
/// first event. Discarding it unstarted gives its place under the caps back.
package struct LiveOpening: Sendable {
    package let start: @Sendable (any LiveSubscriber) -> Void
}

/// Lists refreshed together: on one queue, after one delay (nanoseconds).
private struct LiveRound: Hashable {
    let executor: Int
    let delay: UInt64
}

/// One round of refreshes on one executor, in steps of a few lists: its lists share a memo of
/// rows and windows (the row memo sized for a couple of new rows per list: grown from empty, it
/// was rehashed a dozen times a round). On an event loop, a step's events are sent before the
/// next step refreshes more lists.
private final class LiveRefreshRound<C: ListCollection>: Sendable {
    private let lists: [LiveList<C>]
    private let engine: CollectionEngine<C>
    private let at: Date
    private let stepNanoseconds: UInt64
    private let state: Locked<State>

    private struct State {
        var next = 0
        var memo: LiveList<C>.RowMemo
        var windows = LiveList<C>.WindowMemo()
    }

    init(_ lists: [LiveList<C>], engine: CollectionEngine<C>, at: Date, step: Duration) {
        self.lists = lists
        self.engine = engine
        self.at = at
        stepNanoseconds = step.nanoseconds
        state = Locked(State(memo: LiveList<C>.RowMemo(minimumCapacity: 2 * lists.count)))
    }

    /// Refreshes the next lists, for about `stepNanoseconds` (at least one); false once none is left.
    func step() -> Bool {
        state.withLock { state in
            let started = DispatchTime.now().uptimeNanoseconds
            while state.next < lists.count {
                lists[state.next].refresh(engine: engine, at: at, memo: &state.memo, windows: &state.windows)
                state.next += 1
                if DispatchTime.now().uptimeNanoseconds - started >= stepNanoseconds { break }
            }
            return state.next < lists.count
        }
    }

}
