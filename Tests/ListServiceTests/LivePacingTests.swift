import Basics
import Testing

@testable import ListService

/// How often a live list may send: the minimum while the processor has room, stretched while
/// it is saturated, back again once it is not.
@Suite struct LivePacingTests {
    /// A process CPU clock the test moves.
    private let cpu = Locked<UInt64>(0)
    private let millisecond: UInt64 = 1_000_000

    private func pacing(cores: Int) -> LivePacing {
        LivePacing(minimum: .milliseconds(20), maximum: .milliseconds(250), cores: cores) { [cpu] in cpu.withLock { $0 } }
    }

    /// 50 ms of wall time pass with the process busy `busy` of `cores` cores, and batches of
    /// `batch` writes made; the interval then.
    private func sample(_ pacing: LivePacing, at now: inout UInt64, busy: Double, cores: Int, batch: Int = 4) -> UInt64 {
        now += 50 * millisecond
        pacing.noteBatch(of: batch)
        cpu.withLock { $0 += UInt64(Double(50 * millisecond) * busy * Double(cores)) }
        return pacing.interval(now: now) / millisecond
    }

    @Test func theIntervalDoublesWhileSaturated_upToTheMaximum_andHalvesBackOnceNot() {
        let pacing = pacing(cores: 2)
        var now: UInt64 = 1_000 * millisecond
        #expect(pacing.interval(now: now) / millisecond == 20, "the first look only takes a sample")
        #expect(sample(pacing, at: &now, busy: 0.5, cores: 2) == 20, "room to spare: the minimum")
        let saturated = (0..<5).map { _ in sample(pacing, at: &now, busy: 0.95, cores: 2) }
        #expect(saturated == [40, 80, 160, 250, 250])
        #expect(pacing.currentMilliseconds == 250)
        #expect(sample(pacing, at: &now, busy: 0.8, cores: 2) == 250, "between the thresholds it holds")
        let relieved = (0..<4).map { _ in sample(pacing, at: &now, busy: 0.3, cores: 2) }
        #expect(relieved == [125, 62, 31, 20])
    }

    @Test func liveWorkAloneNeverStretchesIt_onlyWritersThatWait() {
        let pacing = pacing(cores: 1)
        var now: UInt64 = 1_000 * millisecond
        _ = pacing.interval(now: now)
        #expect(sample(pacing, at: &now, busy: 1, cores: 1, batch: 1) == 20, "saturated, but each write had its batch to itself")
        #expect(sample(pacing, at: &now, busy: 1, cores: 1, batch: 2) == 40)
        #expect(sample(pacing, at: &now, busy: 1, cores: 1, batch: 1) == 20, "the writers stopped waiting")
    }

    @Test func busyIsMeasuredAgainstTheCoresTheProcessMayUse() {
        let pacing = pacing(cores: 4)
        var now: UInt64 = 1_000 * millisecond
        _ = pacing.interval(now: now)
        #expect(sample(pacing, at: &now, busy: 0.5, cores: 2) == 20, "two of four cores busy is not saturation")
    }

    @Test func withinASamplePeriodTheIntervalIsNotSampledAgain() {
        let pacing = pacing(cores: 1)
        var now: UInt64 = 1_000 * millisecond
        _ = pacing.interval(now: now)
        #expect(sample(pacing, at: &now, busy: 1, cores: 1) == 40)
        cpu.withLock { $0 += 10 * millisecond }
        #expect(pacing.interval(now: now + 10 * millisecond) / millisecond == 40, "10 ms later: the last sample's interval")
    }

    @Test func aListsRefreshesAreDueAnIntervalAfterTheLastWasDue_notAfterItRan() {
        let schedule = LiveSchedule()
        let interval = 20 * millisecond
        var now: UInt64 = 1_000 * millisecond
        #expect(schedule.delay(now: now, interval: interval) == 0, "a quiet list's first change goes out at once")
        now += 5 * millisecond
        #expect(schedule.delay(now: now, interval: interval) == 15 * millisecond, "too soon: it waits out the rest")
        // That refresh was due at 1,020 ms; however late it ran, a change 20 ms after that goes at once.
        now = 1_040 * millisecond
        #expect(schedule.delay(now: now, interval: interval) == 0)
        now += 19 * millisecond
        #expect(schedule.delay(now: now, interval: interval) == 1 * millisecond)
    }

    @Test func listsQueuedTogetherStayOnOneSchedule() {
        let lists = (0..<3).map { _ in LiveSchedule() }
        let interval = 20 * millisecond
        var delays: [[UInt64]] = []
        for now in [1_000, 1_007, 1_019, 1_030, 1_081].map({ $0 * millisecond }) {
            delays.append(lists.map { $0.delay(now: now, interval: interval) / millisecond })
        }
        #expect(delays == [[0, 0, 0], [13, 13, 13], [21, 21, 21], [30, 30, 30], [0, 0, 0]])
    }
}
