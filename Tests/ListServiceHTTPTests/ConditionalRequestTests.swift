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
        #expect(ConditionalRequest.ifMatch(nil) == nil)
        #expect(ConditionalRequest.ifMatch("  ") == nil, "an empty header sets no condition")
        #expect(ConditionalRequest.ifMatch("*") == .anyVersion)
        let condition = try #require(ConditionalRequest.ifMatch(#""v1-aaaa", W/"v2-bbbb", "v3-cccc""#))
        #expect(condition.admits("v1"), "the representation part after the version is ignored")
        #expect(condition.admits("v3"))
        #expect(!condition.admits("v2"), "a weak tag never matches")
        #expect(!condition.admits("aaaa"))
        #expect(try #require(ConditionalRequest.ifMatch("v1-aaaa")).admits("v1") == false, "an unquoted tag is not an entity tag")
    }
}
