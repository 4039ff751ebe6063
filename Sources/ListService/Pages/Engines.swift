import Foundation

/// What the service asks of any collection's engine without knowing its type: counts and
/// lookups by name, for start-up logs, id sequences and selections.
protocol AnyCollectionEngine: AnyObject, Sendable {
    var collectionType: ObjectIdentifier { get }
    var name: String { get }
    var sharesSelection: Bool { get }
    var itemCount: Int { get }
    func containsItem(id: String) -> Bool
    /// Sends `session`'s selection to its live lists and maps of this collection.
    func selectionChanged(for session: Session)
    /// The highest sequence number among the ids of the items held.
    var highestHeldSequence: Int { get }
    /// Applies changes as storage keeps them (made by another process), in order, the last at
    /// log position `position`; returns the highest sequence among their ids. A record that
    /// cannot be decoded applies nothing.
    func applyStored(_ changes: [StoredChange], at position: UInt64) throws(JSONFieldError) -> Int
    /// Replaces every item with `store`'s (and its log position), if it is this collection's.
    func replaceState(with store: any AnyCollectionStore)
}

extension CollectionEngine: AnyCollectionEngine {
    var collectionType: ObjectIdentifier { ObjectIdentifier(C.self) }
    var name: String { C.name }
    var sharesSelection: Bool { C.sharesSelection }
    var itemCount: Int { state.count }
    func containsItem(id: String) -> Bool { state.item(id: id) != nil }
    func selectionChanged(for session: Session) { live.selectionChanged(for: session) }
    var highestHeldSequence: Int { state.largest { C.sequence(of: C.id(of: $0)) ?? 0 } }

    func applyStored(_ changes: [StoredChange], at position: UInt64) throws(JSONFieldError) -> Int {
        var decoded: [ItemChange<C.Item>] = []
        decoded.reserveCapacity(changes.count)
        var highest = 0
        for change in changes {
            highest = max(highest, C.sequence(of: change.id) ?? 0)
            guard let record = change.record else {
                decoded.append(.delete(id: change.id))
                continue
            }
            decoded.append(.upsert(try C.decodeRecord(record, path: "\(C.name) \(change.id)")))
        }
        apply(decoded, at: position)
        return highest
    }

    func replaceState(with store: any AnyCollectionStore) {
        guard let state = store as? CollectionState<C> else { return }
        replaceAll(state.allItems, at: state.position)
    }
}

/// One engine per registered collection, in registration order, found by the collection's type.
package final class Engines: Sendable {
    let all: [any AnyCollectionEngine]
    private let byType: [ObjectIdentifier: any AnyCollectionEngine]

    init(_ engines: [any AnyCollectionEngine]) {
        all = engines
        byType = Dictionary(uniqueKeysWithValues: engines.map { ($0.collectionType, $0) })
    }

    /// The engine of collection `C` (every registered collection has one).
    package func engine<C: ListCollection>(_ collection: C.Type) -> CollectionEngine<C> {
        // The engine stored under `C`'s type is the `CollectionEngine<C>` made for it, so this
        // cast fails only for a collection missing from `CollectionRegistry.visitAll`.
        guard let engine = byType[ObjectIdentifier(C.self)] as? CollectionEngine<C> else {
            preconditionFailure("\(C.name) is not registered in CollectionRegistry.visitAll")
        }
        return engine
    }

    /// The engine of the collection called `name`.
    func named(_ name: String) -> (any AnyCollectionEngine)? { all.first { $0.name == name } }
}
