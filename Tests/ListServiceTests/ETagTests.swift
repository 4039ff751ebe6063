import Basics
import Foundation
import Testing

@testable import ListService

/// Body tags: equal bytes, equal tag; a change of any one byte, anywhere, or of the length,
/// another tag.
@Suite struct ETagTests {
    @Test func aBodysTag_changesWithEveryByteAndTheLength() {
        var random = SplitMix64(seed: 11)
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 63, 64, 100, 1_003] {
            let body = (0..<length).map { _ in UInt8(random.below(256)) }
            let tag = ETag.make(for: body)
            #expect(ETag.make(for: body) == tag)
            for index in body.indices {
                var changed = body
                changed[index] ^= UInt8(1 << random.below(8))
                #expect(ETag.make(for: changed) != tag, "length \(length), byte \(index)")
            }
            #expect(ETag.make(for: body + [0]) != tag, "length \(length) and one more zero byte")
        }
    }

    /// A page with a shared tail (a grouped list's sections) is tagged by both parts, the
    /// tail's digest made once: the same parts, the same tag; another lead or tail, another.
    @Test func aLeadAndATail_areTaggedTogether() {
        let lead = Array(#"{"items":[],"total":0"#.utf8)
        let tail = PageTail(Array(#","sections":[{"key":"a","count":1}]}"#.utf8))
        let tag = ETag.make(lead: lead, tail: tail)
        #expect(ETag.make(lead: lead, tail: PageTail(tail.bytes)) == tag)
        #expect(ETag.make(lead: lead, tail: PageTail(Array(#","sections":[{"key":"a","count":2}]}"#.utf8))) != tag)
        #expect(ETag.make(lead: Array(#"{"items":[],"total":1"#.utf8), tail: tail) != tag)
    }

    /// The words are hashed in four lanes: the same words in other lanes are another body.
    @Test func wordsMovedBetweenLanes_changeTheTag() {
        var random = SplitMix64(seed: 12)
        let body = (0..<256).map { _ in UInt8(random.below(256)) }
        let tag = ETag.make(for: body)
        for (first, second) in [(0, 8), (0, 32), (8, 24), (200, 240)] {
            var swapped = body
            for byte in 0..<8 { swapped.swapAt(first + byte, second + byte) }
            #expect(ETag.make(for: swapped) != tag, "words at \(first) and \(second) swapped")
        }
    }
}
