import Testing

@testable import ListService

/// A view-model answers a repeat from its held page only when the request is the same one.
@Suite struct ListRequestKeyTests {
    private func key(
        _ parameters: [(String, String)], language: String? = "de-DE", caller: Caller = .anonymous
    ) -> ListRequest.Key {
        ListRequest(parameters: parameters.map { (name: $0.0, value: $0.1) }, acceptLanguage: language, caller: caller).cacheKey
    }

    @Test func theSameRequest_hasTheSameKey() {
        #expect(key([("filter", "pending"), ("q", "john")]) == key([("filter", "pending"), ("q", "john")]))
        #expect(key([]) == key([]))
    }

    @Test func anyDifference_makesAnotherKey() {
        let base = key([("filter", "pending"), ("q", "john")])
        #expect(base != key([("q", "john"), ("filter", "pending")]), "order is kept as sent")
        #expect(base != key([("filter", "pending"), ("q", "johnn")]))
        #expect(base != key([("filter", "pending"), ("qq", "john")]))
        #expect(base != key([("filter", "pending")]))
        #expect(base != key([("filter", "pending"), ("q", "john"), ("q", "john")]))
        #expect(base != key([("filter", "pending"), ("q", "john")], language: nil))
        #expect(base != key([("filter", "pending"), ("q", "john")], language: "en-US"))
        // Pieces that a joined string could run together stay apart.
        #expect(key([("a", "b\u{0}c\u{1}d")]) != key([("a", "b"), ("c", "d")]))
    }

    @Test func anotherCaller_makesAnotherKey() {
        let customer = Caller.identified(Identity(subject: "c-1", role: .customer))
        let staff = Caller.identified(Identity(subject: "c-1", role: .staff))
        let parameters = [("filter", "pending")]
        #expect(key(parameters, caller: customer) == key(parameters, caller: customer))
        #expect(key(parameters, caller: customer) != key(parameters, caller: staff))
        #expect(key(parameters, caller: customer) != key(parameters))
        #expect(key(parameters, caller: customer) != key(parameters, caller: .identified(Identity(subject: "c-2", role: .customer))))
    }
}
