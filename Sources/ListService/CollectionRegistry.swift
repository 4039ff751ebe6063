/// Something done once per collection, with the collection's concrete type.
public protocol CollectionVisitor {
    mutating func visit<C: ListCollection>(_ collection: C.Type)
}

/// Every collection the service serves: one line each. A new collection is a folder under
/// `Collections/` (copy one) plus its line here; storage, engines, sessions and routes follow.
/// Collections are visited with their concrete types (not as existentials) so the optimizer
/// specializes the generic engine and routes for each one.
public enum CollectionRegistry {
    public static func visitAll<V: CollectionVisitor>(_ visitor: inout V) {
        visitor.visit(Orders.self)
        visitor.visit(Tasks.self)
        visitor.visit(Quakes.self)
        visitor.visit(Users.self)
    }
}
