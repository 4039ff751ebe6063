import Basics
import Foundation
import Testing

@testable import ListService

/// Body tags: equal bytes, equal tag; a change of any one byte, anywhere, or of the length,
/// another tag.
@Suite struct ETagTests {
    @Test func aBodysTag_changesWithEveryByteAndTheLength() {
        var random = SplitMix64(seed: 11)
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 100, 1_003] {
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
}
