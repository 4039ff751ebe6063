import Basics
import Testing

@testable import ListService

@Suite struct WindowDiffTests {
    /// Applies ops as a client does, checking each addresses a row that is (or is not) there.
    static func apply(_ ops: [WindowOp], to window: [String]) -> [String]? {
        var window = window
        for op in ops {
            switch op {
            case .remove(let id, _):
                guard let index = window.firstIndex(of: id) else { return nil }
                window.remove(at: index)
            case .move(let id, _, let to):
                guard let index = window.firstIndex(of: id) else { return nil }
                window.remove(at: index)
                guard to <= window.count else { return nil }
                window.insert(id, at: to)
            case .insert(let id, let index):
                guard !window.contains(id), index <= window.count else { return nil }
                window.insert(id, at: index)
            case .update(let id):
                guard window.contains(id) else { return nil }
            }
        }
        return window
    }

    @Test func oneRowMovingUpIsOneMove() {
        let old = ["a", "b", "c", "d", "e"]
        let new = ["a", "d", "b", "c", "e"]
        let ops = WindowDiff.ops(from: old, to: new, changed: ["d"])
        #expect(ops == [.move(id: "d", from: 3, to: 1), .update(id: "d")])
        #expect(Self.apply(ops, to: old) == new)
    }

    @Test func oneRowMovingDownIsOneMove() {
        let old = ["a", "b", "c", "d", "e"]
        let new = ["a", "c", "d", "e", "b"]
        let ops = WindowDiff.ops(from: old, to: new, changed: [])
        #expect(ops == [.move(id: "b", from: 1, to: 4)])
        #expect(Self.apply(ops, to: old) == new)
    }

    @Test func aRowLeavingLetsTheNextSlideIn() {
        let old = ["a", "b", "c"]
        let new = ["a", "c", "d"]
        let ops = WindowDiff.ops(from: old, to: new, changed: [])
        #expect(ops == [.remove(id: "b", index: 1), .insert(id: "d", index: 2)])
    }

    @Test func contentOnlyIsAnUpdateInPlace() {
        #expect(WindowDiff.ops(from: ["a", "b"], to: ["a", "b"], changed: ["b", "z"]) == [.update(id: "b")])
        #expect(WindowDiff.ops(from: ["a", "b"], to: ["a", "b"], changed: []).isEmpty)
    }

    @Test func randomWindowsAlwaysArriveExactly() {
        var generator = SplitMix64(seed: 11)
        for _ in 0..<2000 {
            let universe = (0..<12).map { "r\($0)" }
            let old = Array(universe.shuffled(using: &generator).prefix(Int.random(in: 0...10, using: &generator)))
            let new = Array(universe.shuffled(using: &generator).prefix(Int.random(in: 0...10, using: &generator)))
            let changed = Set(universe.filter { _ in Bool.random(using: &generator) })
            let ops = WindowDiff.ops(from: old, to: new, changed: changed)
            #expect(Self.apply(ops, to: old) == new, "\(old) → \(new): \(ops)")
            let updates = ops.compactMap { if case .update(let id) = $0 { id } else { nil } }
            #expect(Set(updates) == changed.intersection(old).intersection(new), "an update for each changed row kept, and only those")
            let removes = ops.firstIndex { if case .insert = $0 { true } else { false } } ?? ops.count
            #expect(!ops[removes...].contains { if case .remove = $0 { true } else { false } }, "removes come before inserts")
        }
    }
}
