import Testing

@testable import HTTPLite

@Suite struct AcceptEncodingTests {
    func accepts(_ values: [String]) -> Bool {
        var headers: HTTPHeaders = ["Host": "a"]
        for value in values { headers.add(name: "accept-encoding", value: value) }
        return AcceptEncoding.acceptsGzip(headers)
    }

    @Test func gzipIsAcceptedByNameOrWildcard_unlessItsQualityIsZero() {
        for accepted in [
            ["gzip"], ["gzip, deflate, br"], ["br;q=1.0, GZip;q=0.2"], ["*"], ["x-gzip"], ["identity", "gzip"], [" gzip ;q=1 "],
        ] {
            #expect(accepts(accepted), "\(accepted)")
        }
        for refused in [[], [""], ["identity"], ["br, deflate"], ["gzip;q=0"], ["gzip;q=0.000, *"], ["*;q=0"], ["gzipx"], ["zip"]] {
            #expect(!accepts(refused), "\(refused)")
        }
        #expect(accepts(["gzip;q=abc"]), "an unreadable quality counts as 1")
        #expect(accepts(["gzip;level=1;q=0.5"]), "other parameters are skipped")
    }
}

/// The gzip coding itself: what caches keep must be the size it is.
@Suite struct GzipTests {
    @Test func aCompressedBody_isHeldAtItsExactSize() throws {
        let input = Array(String(repeating: #"{"id":"o-000001","title":"Order for John"},"#, count: 3_000).utf8)
        let compressed = try #require(Gzip.compress(input))
        #expect(compressed.count < input.count / 20)
        #expect(compressed.capacity < compressed.count + 64, "not a buffer sized for the worst case (about the input's size)")
    }
}
