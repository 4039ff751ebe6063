import Testing

@testable import HTTPLite

/// W3C Trace Context: a caller's `traceparent` continued when valid, a new trace otherwise.
@Suite struct TraceContextTests {
    static let parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test func aValidTraceparentIsContinuedUnderANewSpan() {
        let trace = TraceContext(headers: ["traceparent": Self.parent, "tracestate": "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"])
        #expect(trace.traceID == "4bf92f3577b34da6a3ce929d0e0e4736" && trace.parentID == "00f067aa0ba902b7" && trace.flags == "01")
        #expect(trace.spanID.count == 16 && trace.spanID != "00f067aa0ba902b7")
        #expect(trace.state == "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE")
        #expect(trace.traceparent == "00-4bf92f3577b34da6a3ce929d0e0e4736-\(trace.spanID)-01")
        // Two tracestate lines are one list.
        let split = TraceContext(headers: ["traceparent": Self.parent, "tracestate": "a=1", "tracestate": "b=2"])
        #expect(split.state == "a=1,b=2")
        // A later version is read as version 00 would be, extra fields and all.
        #expect(TraceContext.parse("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-comes") != nil)
    }

    @Test(arguments: [
        "4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // no version
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",  // uppercase
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  // all-zero trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",  // all-zero parent id
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // version ff
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",  // version 00 with more
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",  // short trace id
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",  // short flags
    ])
    func anInvalidTraceparentStartsANewTraceAndDropsTheState(_ value: String) {
        let trace = TraceContext(headers: ["traceparent": value, "tracestate": "rojo=1"])
        #expect(TraceContext.parse(value) == nil)
        #expect(trace.parentID == nil && trace.state == nil && trace.flags == "00")
        #expect(trace.traceID.count == 32 && trace.traceID != "4bf92f3577b34da6a3ce929d0e0e4736")
    }

    @Test func newTracesAndSpansDiffer() {
        let ids = (0..<1000).map { _ in TraceContext(headers: [:]) }
        #expect(Set(ids.map(\.traceID)).count == 1000 && Set(ids.map(\.spanID)).count == 1000)
        #expect(ids.allSatisfy { $0.traceID.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } })
        // Two traceparent fields: ambiguous, so a new trace.
        let doubled = TraceContext(headers: ["traceparent": Self.parent, "traceparent": Self.parent])
        #expect(doubled.parentID == nil)
    }
}
