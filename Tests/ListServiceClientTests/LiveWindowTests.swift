import Foundation
import Testing

@testable import ListServiceClient

/// A window applying events as the service sends them, without a server.
@MainActor @Suite struct LiveWindowTests {
    static func row(_ id: String, taps: Int = 0) -> String {
        #"{"id":"\#(id)","name":"\#(id)","initials":"X","taps":\#(taps),"tapsLabel":"\#(taps) taps","version":"0000000000000000"}"#
    }

    static func snapshot(_ ids: [String], v: Int, sections: String = "[]") throws -> LiveSnapshot<UserRow> {
        let json =
            #"{"items":[\#(ids.map { row($0) }.joined(separator: ","))],"total":\#(ids.count),"formattedTotal":"\#(ids.count)","counts":{"all":\#(ids.count)},"#
            + #""formattedCounts":{"all":"\#(ids.count)"},"sections":\#(sections),"v":\#(v)}"#
        return try JSONDecoder().decode(LiveSnapshot<UserRow>.self, from: Data(json.utf8))
    }

    static func delta(_ body: String) throws -> LiveDelta<UserRow> {
        try JSONDecoder().decode(LiveDelta<UserRow>.self, from: Data(body.utf8))
    }

    @Test func opsApplyInOrderAndAGapIsRefused() throws {
        let window = LiveWindow<UserRow>(key: "l1", basePath: "/users/live?sort=name", isPaged: true, offset: 0, limit: 4)
        #expect(window.path == "/users/live?sort=name&limit=4")
        window.apply(try Self.snapshot(["a", "b", "c", "d"], v: 1))
        let applied = window.apply(
            try Self.delta(
                #"{"v":2,"base":1,"at":0,"total":5,"formattedTotal":"5","counts":{"all":5},"ops":[{"op":"remove","id":"b","index":1},"#
                    + #"{"op":"move","id":"d","from":2,"to":0},{"op":"insert","index":3,"row":\#(Self.row("e"))},"#
                    + #"{"op":"update","id":"a","row":\#(Self.row("a", taps: 7))}]}"#))
        #expect(applied)
        #expect(window.ids == ["d", "a", "c", "e"] && window.rows["a"]?.taps == 7 && window.rows["b"] == nil)
        #expect(window.total == 5 && window.formattedTotal == "5" && window.counts == ["all": 5] && window.formattedCounts == ["all": "4"])
        // A delta that does not follow v 2: refused, nothing applied.
        #expect(!window.apply(try Self.delta(#"{"v":4,"base":3,"total":9,"formattedTotal":"9","ops":[{"op":"remove","id":"d"}]}"#)))
        #expect(window.ids == ["d", "a", "c", "e"] && window.total == 5)
    }

    @Test func sectionsChangeByKeyAndTheirFirstIndexIsDerived() throws {
        let window = LiveWindow<UserRow>(key: "l1", basePath: "/users/live?group=initial", isPaged: true, offset: 500, limit: 2)
        #expect(window.path == "/users/live?group=initial&limit=2&offset=500")
        let sections =
            #"[{"key":"A","title":"A","count":2,"formattedCount":"2","firstIndex":0,"cursor":""},"#
            + #"{"key":"C","title":"C","count":3,"formattedCount":"3","firstIndex":2,"cursor":"x"}]"#
        window.apply(try Self.snapshot(["a", "b"], v: 1, sections: sections))
        _ = window.apply(
            try Self.delta(
                #"{"v":2,"base":1,"total":6,"formattedTotal":"6","ops":[],"sections":[{"key":"B","title":"B","count":1,"formattedCount":"1","#
                    + #""firstIndex":2,"cursor":"y","after":"A"},{"key":"A","title":"A","count":1,"formattedCount":"1","#
                    + #""firstIndex":0,"cursor":""}],"removedSections":["C"]}"#))
        #expect(window.sections.map(\.key) == ["A", "B"])
        #expect(window.sections.map(\.firstIndex) == [0, 1])
        // New first: `after` null.
        _ = window.apply(
            try Self.delta(
                ##"{"v":3,"base":2,"total":7,"formattedTotal":"7","ops":[],"sections":[{"key":"#","title":"#","count":2,"formattedCount":"2","##
                    + ##""firstIndex":0,"cursor":"","after":null}]}"##))
        #expect(window.sections.map(\.key) == ["#", "A", "B"] && window.sections.map(\.firstIndex) == [0, 2, 3])
    }

    @Test func aMapsPathTakesNoPaging() {
        let window = LiveWindow<QuakeMarker>(key: "l2", basePath: "/quakes/map/live?q=alaska", isPaged: false, offset: 0, limit: 50)
        #expect(window.path == "/quakes/map/live?q=alaska")
    }
}
