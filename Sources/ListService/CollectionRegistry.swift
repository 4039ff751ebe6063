/// Every collection the service serves. A new collection is a `ListCollection` in its own
/// folder under `Collections/` plus one entry here; loading, engines, sessions and routes
/// follow from it.
public enum CollectionRegistry {
    public static let all: [any ListCollection.Type] = [Orders.self, Tasks.self, Quakes.self]

    /// The collections whose list and map share a session's selection.
    static var namesSharingSelection: [String] {
        all.filter { sharesSelection($0) }.map { name($0) }
    }

    private static func sharesSelection<C: ListCollection>(_ collection: C.Type) -> Bool { C.sharesSelection }
    private static func name<C: ListCollection>(_ collection: C.Type) -> String { C.name }
}
