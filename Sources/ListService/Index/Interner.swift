/// Hands out one shared copy of each distinct value: 100,000 orders name about a thousand
/// customers, so their names need not be stored 100,000 times; a basket of one mug is one
/// array however many orders hold it.
struct Interner<Value: Hashable> {
    private var values: Set<Value> = []

    mutating func intern(_ value: Value) -> Value {
        if let existing = values.firstIndex(of: value) { return values[existing] }
        values.insert(value)
        return value
    }
}
