import Foundation

/// Keeps the embedded demo data current. The embedded items are made relative to an anchor
/// (the start of the hour the state was first made), so without this, "today's" earthquakes
/// and "this month's" orders drift into the past day by day. A state directory seeded from the
/// embedded data holds `<name>.embedded`, the anchors its items were made at; on a later start
/// with a new anchor, every item still exactly as made is made again at the new anchor, and
/// everything clients changed, created or deleted is kept as it is.
enum EmbeddedRefresh {
    /// The anchors of a state's embedded items: the current one, and the one before (a start
    /// that stopped between writing this file and the refreshed snapshot left items of either).
    struct Anchors: Equatable {
        var current: Date
        var previous: Date?
    }

    static func markerPath<C: ListCollection>(_ collection: C.Type, in directory: String) -> String {
        (directory as NSString).appendingPathComponent("\(C.name).embedded")
    }

    static func read(_ path: String) -> Anchors? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        var anchors: [String: Date] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let date = ISO8601.parse(String(parts[1])) { anchors[String(parts[0])] = date }
        }
        return anchors["current"].map { Anchors(current: $0, previous: anchors["previous"]) }
    }

    static func write(_ anchors: Anchors, to path: String) throws {
        var text = "current=\(ISO8601.format(anchors.current))\n"
        if let previous = anchors.previous { text += "previous=\(ISO8601.format(previous))\n" }
        try DurableFile.replace(path, with: Array(text.utf8))
    }

    /// `items` with each one still exactly as the embedded data made it (at one of `anchors`:
    /// the same version) made again at `anchor`; nil when none is.
    static func refresh<C: ListCollection>(_ collection: C.Type, _ items: [C.Item], madeAt anchors: Anchors, to anchor: Date) -> [C.Item]? {
        let versionsAsMade = ([anchors.current] + (anchors.previous.map { [$0] } ?? [])).map { made in
            Dictionary(uniqueKeysWithValues: C.makeDefaultItems(anchor: made).map { (C.id(of: $0), ItemVersions<C>.digest(of: $0)) })
        }
        let remade = Dictionary(uniqueKeysWithValues: C.makeDefaultItems(anchor: anchor).map { (C.id(of: $0), $0) })
        var isChanged = false
        let refreshed = items.map { item -> C.Item in
            let id = C.id(of: item), version = ItemVersions<C>.digest(of: item)
            guard let fresh = remade[id], versionsAsMade.contains(where: { $0[id] == version }) else { return item }  // a client's: kept
            isChanged = isChanged || ItemVersions<C>.digest(of: fresh) != version
            return fresh
        }
        return isChanged ? refreshed : nil
    }
}
