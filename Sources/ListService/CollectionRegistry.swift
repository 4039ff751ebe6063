/// Something done once per collection, with the collection's concrete type. A collection
/// clients can change is visited through the second overload, picked at compile time.
package protocol CollectionVisitor {
    mutating func visit<C: ListCollection>(_ collection: C.Type)
    mutating func visit<C: EditableCollection>(_ collection: C.Type)
}

extension CollectionVisitor {
    /// A visitor that does the same for every collection implements only the first overload.
    package mutating func visit<C: EditableCollection>(_ collection: C.Type) { visitAsListCollection(C.self) }

    private mutating func visitAsListCollection<C: ListCollection>(_ collection: C.Type) { visit(C.self) }
}

/// Every collection the service serves: one line each. A new collection is a folder under
/// `Collections/` (copy one) plus its line here; storage, engines, sessions and routes follow.
/// Collections are visited with their concrete types (not as existentials) so the optimizer
/// specializes the generic engine for each one; writes reach the engine through an existential,
/// so a new collection also gets a line in `CollectionEngine.apply`'s `@_specialize` list.
package enum CollectionRegistry {
    package static func visitAll<V: CollectionVisitor>(_ visitor: inout V) {
        visitor.visit(Orders.self)
        visitor.visit(Tasks.self)
        visitor.visit(Quakes.self)
        visitor.visit(Users.self)
    }
}

extension CollectionRegistry {
    /// Each collection's data file in a `--data` directory, and whether it may be missing.
    package static var dataFiles: [(name: String, isOptional: Bool)] {
        var files = DataFileNames()
        visitAll(&files)
        return files.names
    }
}

private struct DataFileNames: CollectionVisitor {
    var names: [(name: String, isOptional: Bool)] = []
    mutating func visit<C: ListCollection>(_ collection: C.Type) { names.append((C.fileName, C.isDataFileOptional)) }
}
