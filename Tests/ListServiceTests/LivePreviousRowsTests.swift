import Testing

@testable import ListService

/// A live refresh finds each row's previous one by slot, else by id, in a short window (searched)
/// and a long one (indexed) alike.
@Suite struct LivePreviousRowsTests {
    private func row(_ id: String, slot: Int32) -> LiveRow {
        LiveRow(id: id, slot: slot, revision: 1, sectionKey: nil, bytes: Array(id.utf8))
    }

    @Test(arguments: [3, 200])
    func aPreviousRow_isFoundBySlot_elseByID(rowCount: Int) {
        let previous = LivePreviousRows((0..<rowCount).map { row("o-\($0)", slot: Int32(1_000 + $0)) })
        #expect(previous.count == rowCount)
        for index in [0, rowCount / 2, rowCount - 1] {
            #expect(previous.row(slot: Int32(1_000 + index))?.id == "o-\(index)")
            #expect(previous.row(id: "o-\(index)", slot: Int32(1_000 + index))?.id == "o-\(index)")
            #expect(previous.row(id: "o-\(index)", slot: 7)?.slot == Int32(1_000 + index), "its item now in another slot: by id")
        }
        #expect(previous.row(slot: 7) == nil)
        #expect(previous.row(id: "o-new", slot: 1_000) == nil, "a slot that held another item")
    }

    @Test(arguments: [3, 200])
    func aSlotHeldTwice_findsTheFirstRow(rowCount: Int) {
        var rows = (0..<rowCount).map { row("o-\($0)", slot: Int32($0)) }
        rows.append(row("o-again", slot: 1))
        let previous = LivePreviousRows(rows)
        #expect(previous.row(slot: 1)?.id == "o-1")
        #expect(previous.row(id: "o-again", slot: 1)?.id == "o-again")
    }
}
