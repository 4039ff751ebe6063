/// Something done once per collection, with the collection's concrete type.
public protocol CollectionVisitor {
    mutating func visit<C: ListCollection>(_ collection: C.Type)
}

/// Every collection the service serves. A new collection is a `ListCollection` in its own
/// folder under `Collections/` plus one line in `visitAll`; loading, engines, sessions and
/// routes follow from it. Collections are visited with their concrete types (not as
/// existentials) so the optimizer specializes the generic engine for each one.
public enum CollectionRegistry {
    public static func visitAll<V: CollectionVisitor>(_ visitor: inout V) {
        visitor.visit(Orders.self)
        visitor.visit(Tasks.self)
        visitor.visit(Quakes.self)
        visitor.visit(Users.self)
    }

    /// The collections' names, in registration order.
    public static var names: [String] {
        var collector = NameCollector()
        visitAll(&collector)
        return collector.names
    }

    /// The collections whose list and map share a session's selection.
    package static var namesSharingSelection: [String] {
        var collector = NameCollector(onlySharingSelection: true)
        visitAll(&collector)
        return collector.names
    }

    private struct NameCollector: CollectionVisitor {
        var onlySharingSelection = false
        var names: [String] = []

        mutating func visit<C: ListCollection>(_ collection: C.Type) {
            if !onlySharingSelection || C.sharesSelection { names.append(C.name) }
        }
    }
}
