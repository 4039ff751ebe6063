import Foundation

/// One engine per registered collection, reachable by its concrete type.
public final class Engines: Sendable {
    private let engines: [String: any Sendable]

    init(_ engines: [String: any Sendable]) { self.engines = engines }

    /// The engine of collection `C` (every registered collection has one).
    public func engine<C: ListCollection>(_ collection: C.Type) -> CollectionEngine<C> {
        guard let engine = engines[C.name] as? CollectionEngine<C> else {
            preconditionFailure("\(C.name) is not registered in CollectionRegistry.visitAll")
        }
        return engine
    }
}
