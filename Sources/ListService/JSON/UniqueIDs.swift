/// The ids met so far while decoding a list of items, which must all differ.
struct UniqueIDs {
    private var seen = Set<String>()

    /// Records `id`, or names the item at `path` whose id an earlier `item` already has.
    mutating func claim(_ id: String, at path: String, item: String) throws(JSONFieldError) {
        guard seen.insert(id).inserted else {
            throw JSONFieldError(path: "\(path).id", reason: "'\(id.prefix(200))' is used by an earlier \(item)")
        }
    }
}
