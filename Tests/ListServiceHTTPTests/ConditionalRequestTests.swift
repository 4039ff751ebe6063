import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// `If-None-Match` on reads and `If-Match` on writes (RFC 9110 §13.1).
@Suite struct ConditionalRequestTests {
    @Test func ifNoneMatch_handlesListsWeakTagsAndStar() {
        #expect(ConditionalRequest.ifNoneMatch(#""a", "b""#, matchesEitherCodingOf: #""b""#))
        #expect(ConditionalRequest.ifNoneMatch(#"W/"b""#, matchesEitherCodingOf: #""b""#))
        #expect(ConditionalRequest.ifNoneMatch("*", matchesEitherCodingOf: #""b""#))
        #expect(!ConditionalRequest.ifNoneMatch(#""a""#, matchesEitherCodingOf: #""b""#))
        #expect(!ConditionalRequest.ifNoneMatch(nil, matchesEitherCodingOf: #""b""#))
        #expect(ConditionalRequest.ifNoneMatch(#""b-gzip""#, matchesEitherCodingOf: #""b""#), "the gzip coding's tag")
    }

    @Test func ifMatch_comparesItemVersionsStrongly() throws {
        #expect(try ConditionalRequest.ifMatch(nil) == nil)
        #expect(try ConditionalRequest.ifMatch("  ") == nil, "an empty header sets no condition")
        #expect(try ConditionalRequest.ifMatch("*") == .anyVersion)
        let condition = try #require(try ConditionalRequest.ifMatch(#""v1-aaaa", W/"v2-bbbb", "v3-cccc""#))
        #expect(condition.admits("v1"), "the representation part after the version is ignored")
        #expect(condition.admits("v3"))
        #expect(!condition.admits("v2"), "a weak tag never matches")
        #expect(!condition.admits("aaaa"))
        for malformed in ["v1-aaaa", #""v1"#, #"W/v1"#, #""v1", v2"#] {
            #expect(throws: HTTPError.self, "not entity tags: \(malformed)") { try ConditionalRequest.ifMatch(malformed) }
        }
    }
}
