import Testing

@testable import HTTPLite

/// A connection's unsent bytes: a buffer and a large body sent in place (in one or two
/// pieces), in order.
@Suite struct OutboundBytesTests {
    private func unsent(_ output: OutboundBytes) -> [UInt8] { output.withUnsent { Array($0) + Array($1) + Array($2) } }

    @Test func aLargeBody_isSentInPlace_afterTheHead() {
        var output = OutboundBytes()
        let body = [UInt8](repeating: 7, count: OutboundBytes.inPlaceMinimum)
        output.append { $0.append(contentsOf: [1, 2, 3]) }
        output.append(body: body)
        #expect(output.withUnsent { ($0.count, $1.count, $2.count) } == (3, body.count, 0), "the body is not copied into the buffer")
        #expect(output.count == 3 + body.count)
        #expect(unsent(output) == [1, 2, 3] + body)
    }

    @Test func aSmallBody_isBuffered() {
        var output = OutboundBytes()
        output.append { $0.append(1) }
        output.append(body: [2, 3])
        #expect(output.withUnsent { ($0.count, $1.count, $2.count) } == (3, 0, 0))
    }

    @Test func sharedBytes_ofAnySize_areSentInPlace_whileAPlaceIsFree_thenCopied_inOrder() {
        var output = OutboundBytes()
        let events: [[UInt8]] = [[1, 1], [2, 2, 2], [3]]
        output.append(shared: events[0])
        output.append(shared: events[1])
        #expect(output.withUnsent { ($0.count, $1.count, $2.count) } == (0, 2, 3), "both in place, no buffer")
        output.append(shared: events[2])  // no place left: the waiting ones move into the buffer
        #expect(unsent(output) == [1, 1, 2, 2, 2, 3])
        output.sent(4) { _ in true }
        output.append(shared: [4, 4])
        #expect(unsent(output) == [2, 3, 4, 4])
        output.sent(4) { _ in false }
        #expect(output.count == 0)
        #expect(events == [[1, 1], [2, 2, 2], [3]], "what other connections send is never changed")
    }

    @Test func partialSends_acrossTheBoundary_keepTheOrder() {
        var output = OutboundBytes()
        let body = (0..<5000).map { UInt8(truncatingIfNeeded: $0) }
        output.append { $0.append(contentsOf: [200, 201]) }
        output.append(body: body)
        var received: [UInt8] = []
        for step in [1, 3, 1000, 4000] {  // 1 from the buffer, then 1 + 2, then the body's
            let chunk = Array(unsent(output).prefix(step))
            received += chunk
            output.sent(chunk.count) { _ in true }
        }
        #expect(received == [200, 201] + body)
        #expect(output.count == 0)
    }

    @Test func bytesAppendedBehindAWaitingBody_followIt() {
        var output = OutboundBytes()
        let first = [UInt8](repeating: 1, count: 5000), second = [UInt8](repeating: 2, count: 6000)
        output.append(body: first)
        output.sent(100) { _ in true }
        output.append { $0.append(contentsOf: [9, 9]) }  // the next answer's head
        output.append(body: second)
        #expect(unsent(output) == Array(first.dropFirst(100)) + [9, 9] + second)
    }

    @Test func whenAllIsSent_theBodyGoes_andTheBufferAsAsked() {
        var output = OutboundBytes()
        output.append { $0.append(contentsOf: [UInt8](repeating: 0, count: 100)) }
        output.append(body: [UInt8](repeating: 1, count: 8000))
        var asked: [Int] = []
        output.sent(50) {
            asked.append($0); return true
        }
        #expect(asked.isEmpty, "nothing is let go before all is sent")
        output.sent(8050) {
            asked.append($0); return false
        }
        #expect(asked.count == 1 && asked[0] >= 100)
        #expect(output.count == 0)
        #expect(output.withUnsent { $0.count + $1.count + $2.count } == 0)
    }

    @Test func aBodyInTwoLargePieces_isSentInPlace_andAThirdIsCopied() {
        var output = OutboundBytes()
        let lead = [UInt8](repeating: 1, count: OutboundBytes.inPlaceMinimum)
        let tail = (0..<9000).map { UInt8(truncatingIfNeeded: $0) }
        output.append { $0.append(contentsOf: [7, 8]) }
        output.append(parts: [lead, tail])
        #expect(output.withUnsent { ($0.count, $1.count, $2.count) } == (2, lead.count, tail.count), "neither piece is copied")
        var received: [UInt8] = []
        for step in [1, 2, 4094, 3, 5000, 3999] {  // across the buffer's end, the lead's, and on through the tail
            let chunk = Array(unsent(output).prefix(step))
            received += chunk
            output.sent(chunk.count) { _ in true }
        }
        #expect(received == [7, 8] + lead + tail)
        #expect(output.count == 0)
        var three = OutboundBytes()
        three.append(parts: [[9], lead, tail, lead])
        #expect(three.withUnsent { ($1.count, $2.count) } == (0, 0), "a third large piece takes the others into the buffer")
        #expect(unsent(three) == [9] + lead + tail + lead)
    }

    @Test func bytesAppendedBehindTwoPieces_followThem() {
        var output = OutboundBytes()
        let lead = [UInt8](repeating: 1, count: 5000), tail = [UInt8](repeating: 2, count: 6000)
        output.append(parts: [lead, tail])
        output.sent(5100) { _ in true }
        output.append { $0.append(contentsOf: [9, 9]) }  // the next answer's head
        #expect(unsent(output) == Array(tail.dropFirst(100)) + [9, 9])
    }
}
