/// The edits that turn one window of rows into the next, addressed by row id: what a live
/// list sends instead of the whole window. Applied in order they give exactly the new
/// window: removes first (so the window never grows past its limit), then moves of the rows
/// that changed places (as few as possible: rows on a longest run already in order stay),
/// then inserts at their final indices, then updates of rows whose content changed.
package enum WindowOp: Equatable, Sendable {
    /// Take the row out; `index` is where it was at that moment (a hint).
    case remove(id: String, index: Int)
    /// Take the row out and put it at `to` (an index in the window without it); `from` is a hint.
    case move(id: String, from: Int, to: Int)
    /// Put a new row at `index` of the window as it is at that moment.
    case insert(id: String, index: Int)
    /// Same place, new content.
    case update(id: String)
}

package enum WindowDiff {
    /// The ops from `old` to `new` (ids in window order, each at most once); `changed` holds
    /// the ids whose rows have new content (updates for those present in both).
    package static func ops(from old: [String], to new: [String], changed: Set<String>) -> [WindowOp] {
        let newIndex = Dictionary(new.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let oldIDs = Set(old)
        var ops: [WindowOp] = []
        var window: [String] = []
        window.reserveCapacity(max(old.count, new.count))
        for id in old {
            if newIndex[id] == nil {
                ops.append(.remove(id: id, index: window.count))
            } else {
                window.append(id)
            }
        }
        // The rows kept, as their places in the new window; those on a longest increasing run
        // stay, unchanged rows before changed ones: a tapped row moves, not its neighbours.
        let staying = heaviestIncreasingRun(window.map { newIndex[$0] ?? 0 }, weights: window.map { changed.contains($0) ? 2 : 3 })
        let stays = Set(staying.map { window[$0] })
        var updated = Set<String>()
        // Each row that moves goes just after the row before it in the new order (kept or
        // already moved), taking the moving rows in new-window order.
        var predecessor: String?
        for id in new {
            guard oldIDs.contains(id) else { continue }  // new rows are inserted below
            defer { predecessor = id }
            if stays.contains(id) { continue }
            guard let from = window.firstIndex(of: id) else { continue }
            window.remove(at: from)
            let to = predecessor.flatMap { window.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            window.insert(id, at: to)
            ops.append(.move(id: id, from: from, to: to))
            if changed.contains(id) {
                ops.append(.update(id: id))
                updated.insert(id)
            }
        }
        for (index, id) in new.enumerated() where !oldIDs.contains(id) {
            ops.append(.insert(id: id, index: index))
        }
        for id in new where changed.contains(id) && oldIDs.contains(id) && !updated.contains(id) { ops.append(.update(id: id)) }
        return ops
    }

    /// The indices of a heaviest strictly increasing subsequence of `values` (`weights` per
    /// element): with weights 3 and 2 it keeps the most elements, and among runs as long,
    /// the most of weight 3.
    static func heaviestIncreasingRun(_ values: [Int], weights: [Int]) -> [Int] {
        guard let largest = values.max() else { return [] }
        // best[i]: the heaviest run ending at element i; a Fenwick tree of (weight, index) by value.
        var tree = [(weight: Int, index: Int)](repeating: (0, -1), count: largest + 2)
        var previous = [Int](repeating: -1, count: values.count)
        var best = [Int](repeating: 0, count: values.count)
        for (index, value) in values.enumerated() {
            var query = value  // values below `value` sit at tree positions 1...value
            var found = (weight: 0, index: -1)
            while query > 0 {
                if tree[query].weight > found.weight { found = tree[query] }
                query -= query & -query
            }
            best[index] = found.weight + weights[index]
            previous[index] = found.index
            var update = value + 1
            while update < tree.count {
                if best[index] > tree[update].weight { tree[update] = (best[index], index) }
                update += update & -update
            }
        }
        var run: [Int] = []
        var cursor = best.indices.max { best[$0] < best[$1] } ?? -1
        while cursor >= 0 {
            run.append(cursor)
            cursor = previous[cursor]
        }
        return run.reversed()
    }
}
