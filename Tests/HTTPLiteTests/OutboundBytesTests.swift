import Basics
import Glibc
import Testing

@testable import HTTPLite

/// A connection's unsent bytes: a buffer, a large body sent in place and a shared piece sent
/// from its file, in order.
@Suite struct OutboundBytesTests {
    private func unsent(_ output: OutboundBytes) -> [UInt8] { output.withUnsent { Array($0) + Array($1) + ($2?.bytes ?? []) } }

    /// Shared bytes large enough for a file: `fileMinimum` bytes counting up.
    private let shared = FileBackedBytes((0..<FileBackedBytes.fileMinimum).map { UInt8(truncatingIfNeeded: $0 * 7) })

    @Test func aLargeBody_isSentInPlace_afterTheHead() {
        var output = OutboundBytes()
        let body = [UInt8](repeating: 7, count: OutboundBytes.inPlaceMinimum)
        output.append { $0.append(contentsOf: [1, 2, 3]) }
        output.append(body: body)
        #expect(output.withUnsent { ($0.count, $1.count, $2) } == (3, body.count, nil), "the body is not copied into the buffer")
        #expect(output.count == 3 + body.count)
        #expect(unsent(output) == [1, 2, 3] + body)
    }

    @Test func aSmallBody_isBuffered() {
        var output = OutboundBytes()
        output.append { $0.append(1) }
        output.append(body: [2, 3])
        #expect(output.withUnsent { ($0.count, $1.count, $2) } == (3, 0, nil))
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
        #expect(output.withUnsent { $0.count + $1.count + ($2?.count ?? 0) } == 0)
    }

    @Test func aSharedTail_isSentFromItsFile_afterTheLeadInPlace() throws {
        var output = OutboundBytes()
        let lead = [UInt8](repeating: 5, count: OutboundBytes.inPlaceMinimum)
        output.append { $0.append(contentsOf: [1, 2]) }
        output.append(lead: lead, tail: shared)
        let file = try #require(shared.file)
        #expect(output.withUnsent { ($0.count, $1.count, $2) } == (2, lead.count, .init(file: file, offset: 0, count: shared.bytes.count)))
        #expect(output.count == 2 + lead.count + shared.bytes.count)
        var received: [UInt8] = []
        for step in [1, 4000, 100, 30_000, 10_000] {  // the buffer, the lead and into the file, then on through it
            let chunk = Array(unsent(output).prefix(step))
            received += chunk
            output.sent(chunk.count) { _ in true }
        }
        #expect(received == [1, 2] + lead + shared.bytes)
        #expect(output.count == 0)
        #expect(output.withUnsent { $2 } == nil, "the shared bytes are let go once sent")
    }

    @Test func aSmallLead_isCopied_andATailWithoutAFile_isSentInPlace() {
        var output = OutboundBytes()
        output.append(lead: [7, 7], tail: shared)
        #expect(output.withUnsent { ($0.count, $1.count, $2?.count) } == (2, 0, shared.bytes.count))
        let small = FileBackedBytes([UInt8](repeating: 3, count: OutboundBytes.inPlaceMinimum))
        #expect(small.file == nil)
        var memory = OutboundBytes()
        memory.append(lead: [7, 7], tail: small)
        #expect(memory.withUnsent { ($0.count, $1.count, $2) } == (2, small.bytes.count, nil))
        #expect(unsent(memory) == [7, 7] + small.bytes)
    }

    @Test func bytesAppendedBehindASharedTail_followIt() {
        var output = OutboundBytes()
        output.append(lead: [1], tail: shared)
        output.sent(50) { _ in true }
        output.append { $0.append(contentsOf: [9, 9]) }  // the next answer's head
        output.append(lead: [2], tail: shared)
        #expect(unsent(output) == Array(([1] + shared.bytes).dropFirst(50)) + [9, 9] + [2] + shared.bytes)
    }

    @Test func fileBackedBytes_holdTheirBytesInTheFile_andCountThemTwice() throws {
        let file = try #require(shared.file)
        #expect(OutboundBytes.FileRange(file: file, offset: 0, count: shared.bytes.count).bytes == shared.bytes)
        #expect(shared.cost == 2 * shared.bytes.count)
        let small = FileBackedBytes([1, 2, 3])
        #expect(small.file == nil && small.cost == 3)
    }

    @Test func fileBackedBytes_beyondTheFileLimit_areKeptInMemory() {
        let bytes = [UInt8](repeating: 1, count: FileBackedBytes.fileMinimum)
        var held = (0...FileBackedBytes.maximumFiles).map { _ in FileBackedBytes(bytes) }
        #expect(held.contains { $0.file == nil }, "no more than the limit at once")
        #expect(held.allSatisfy { $0.bytes == bytes })
        held.removeAll()
        #expect(FileBackedBytes(bytes).file != nil, "files let go are counted out")
    }
}

extension OutboundBytes.FileRange {
    /// The stretch's bytes, read back from the file.
    var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = max(0, pread(file, buffer.baseAddress, count, off_t(offset)))
        }
    }
}
