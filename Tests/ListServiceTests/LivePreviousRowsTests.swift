import Testing

@testable import ListService

/// A live refresh finds each row's previous one by slot (where it stood first, then along the
/// window), else by id, in a short window (searched) and a long one (indexed) alike.
@Suite struct LivePreviousRowsTests {
    private func row(_ id: String, slot: Int32, revision: UInt32 = 1) -> LiveRow {
        LiveRow(id: id, slot: slot, revision: revision, sectionKey: nil, bytes: Array(id.utf8))
    }

    private func entry(_ id: String, slot: Int32, revision: UInt32 = 1, section: String? = nil) -> LiveWindowRow {
        LiveWindowRow(
            id: id, slot: slot, revision: revision, version: 1,
            section: section.map { ListSections.Section(key: $0, json: [], content: [], firstIndex: 0) })
    }

    @Test(arguments: [3, 200])
    func anUnchangedRow_isFoundBySlot_whereverItNowStands(rowCount: Int) {
        let previous = LivePreviousRows((0..<rowCount).map { row("o-\($0)", slot: Int32(1_000 + $0)) })
        #expect(previous.count == rowCount)
        for index in [0, rowCount / 2, rowCount - 1] {
            let slot = Int32(1_000 + index)
            #expect(previous.unchangedBytes(of: entry("o-\(index)", slot: slot), at: index) == Array("o-\(index)".utf8))
            #expect(previous.unchangedBytes(of: entry("o-\(index)", slot: slot), at: rowCount - 1 - index) == Array("o-\(index)".utf8))
            #expect(previous.unchangedBytes(of: entry("o-\(index)", slot: slot), at: rowCount + 5) != nil, "a position past the end")
            #expect(previous.unchangedBytes(of: entry("o-\(index)", slot: slot, revision: 2), at: index) == nil, "a new revision")
            #expect(previous.unchangedBytes(of: entry("o-\(index)", slot: slot, section: "today"), at: index) == nil, "a new section")
            #expect(previous.unchangedBytes(of: entry("o-new", slot: slot), at: index) == nil, "a slot that held another item")
        }
        #expect(previous.unchangedBytes(of: entry("o-0", slot: 7), at: 0) == nil)
    }

    @Test(arguments: [3, 200])
    func aPreviousRow_isFoundBySlot_elseByID(rowCount: Int) {
        let previous = LivePreviousRows((0..<rowCount).map { row("o-\($0)", slot: Int32(1_000 + $0), revision: 3) })
        for index in [0, rowCount / 2, rowCount - 1] {
            let bytes = Array("o-\(index)".utf8)
            #expect(previous.bytes(id: "o-\(index)", slot: Int32(1_000 + index), at: index) == bytes)
            #expect(previous.bytes(id: "o-\(index)", slot: Int32(1_000 + index), at: 0) == bytes)
            #expect(previous.bytes(id: "o-\(index)", slot: 7, at: index) == bytes, "its item now in another slot: by id")
        }
        #expect(previous.bytes(id: "o-new", slot: 1_000, at: 0) == nil, "a slot that held another item")
    }

    @Test(arguments: [3, 200])
    func aSlotHeldTwice_findsEachRowByItsID(rowCount: Int) {
        var rows = (0..<rowCount).map { row("o-\($0)", slot: Int32($0)) }
        rows.append(row("o-again", slot: 1))
        let previous = LivePreviousRows(rows)
        #expect(previous.unchangedBytes(of: entry("o-1", slot: 1), at: 0) == Array("o-1".utf8))
        let again = previous.unchangedBytes(of: entry("o-again", slot: 1), at: 0)
        #expect(again == nil || again == Array("o-again".utf8), "never another item's row")
        #expect(previous.bytes(id: "o-again", slot: 1, at: 0) == Array("o-again".utf8))
    }
}
