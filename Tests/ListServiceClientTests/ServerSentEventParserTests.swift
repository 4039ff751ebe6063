import Testing

@testable import ListServiceClient

@Suite struct ServerSentEventParserTests {
    @Test func splitsEventsAcrossChunksAndLineEndings() {
        var parser = ServerSentEventParser()
        let text = "retry: 2618\n\n: a comment\nevent: snapshot\r\nid: s-1\rdata: {\"a\":\ndata:1}\n\nevent: delta\nda"
        var events = parser.feed(Array(text.utf8))
        events += parser.feed(Array("ta: x\n\n".utf8))
        #expect(events.count == 3)
        #expect(events[0] == ServerSentEvent(name: "message", data: "", id: nil, retry: 2618))
        #expect(events[1] == ServerSentEvent(name: "snapshot", data: "{\"a\":\n1}", id: "s-1", retry: nil))
        // The last event id stays until another is given, as EventSource keeps it.
        #expect(events[2] == ServerSentEvent(name: "delta", data: "x", id: "s-1", retry: nil))
    }

    @Test func ignoresCommentsAndEventsWithoutData() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array(":\n\nevent: hello\n\nfield-without-colon\n\n".utf8)).isEmpty)
        #expect(parser.feed(Array("data\n\n".utf8)) == [ServerSentEvent(name: "message", data: "", id: nil, retry: nil)])
    }
}
