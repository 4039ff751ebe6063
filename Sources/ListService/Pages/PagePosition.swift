/// Where a page sits in its whole list: what a list view with placeholders needs to size its
/// scroll bar and place the rows (`index`, `itemsBefore`, `itemsAfter`).
struct PagePosition: Equatable {
    /// The rank of the page's first row in the whole list.
    let index: Int
    let itemsAfter: Int

    init(index: Int, rows: Int, total: Int) {
        self.index = index
        itemsAfter = max(0, total - index - rows)
    }

    func write(to json: inout JSONWriter) {
        json.field("index", index)
        json.field("itemsBefore", index)
        json.field("itemsAfter", itemsAfter)
    }
}
