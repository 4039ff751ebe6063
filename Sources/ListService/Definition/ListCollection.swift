/// Everything the engine needs to serve one collection, declared in the collection's folder in
/// parts: what its lists are made of (`CollectionQuery`), what they count (`CollectionCounts`), how its items are shown
/// (`CollectionPresentation`), into which sections its lists fall (`CollectionSections`), how they are kept (`CollectionRecord`), and what it does beside
/// lists (`operations`); `EditableCollection` adds writes. The engine does the rest for every
/// collection: criteria parsing and 400s, per-session view-models, shared results,
/// pagination, ETags, metrics and routes.
package protocol ListCollection: CollectionQuery, CollectionCounts, CollectionSections, CollectionRecord, CollectionExport {
    /// What the collection does beside lists, rows and writes (`POST /{name}/{path}`): none
    /// by default.
    static func operations(writes: WriteCoordinator) -> [CollectionOperation]
}

extension ListCollection {
    package static func operations(writes: WriteCoordinator) -> [CollectionOperation] { [] }
}
