import Basics
import Foundation
import Testing

@testable import HTTPLite

/// The byte-level helpers every request and answer passes through, against their definitions.
@Suite struct HTTPSyntaxTests {
    @Test func tokenCharacters_areExactlyRFC9110s() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPSyntax.isTokenCharacter(byte) == tchar.contains(byte), "byte \(byte)")
            #expect([UInt8(ascii: "a"), byte, UInt8(ascii: "z")].withUnsafeBufferPointer(HTTPSyntax.isToken) == tchar.contains(byte))
            #expect([byte].withUnsafeBufferPointer(HTTPSyntax.isTarget) == (byte > 0x20 && byte < 0x7F), "byte \(byte)")
        }
        #expect(![UInt8]().withUnsafeBufferPointer(HTTPSyntax.isToken))
    }

    /// Names are checked eight bytes at a time: every byte at every place of names of 1 to 24
    /// bytes (short, whole words, and a last word read over the one before) agrees with the
    /// byte-by-byte check.
    @Test func tokens_wordAtATime_agreeWithTheByteCheck() {
        let letters = Array("Content-Type-Options-Xy9".utf8)
        for count in 1...letters.count {
            for place in 0..<count {
                for byte in UInt8.min...UInt8.max {
                    var name = Array(letters[..<count])
                    name[place] = byte
                    let expected = name.allSatisfy(HTTPSyntax.isTokenCharacter)
                    #expect(name.withUnsafeBufferPointer(HTTPSyntax.isToken) == expected, "\(byte) at \(place) of \(count)")
                }
            }
        }
    }

    @Test(arguments: [0, 7, 9, 10, 99, 100, 404, 65_536, 1_234_567_890, Int.max])
    func decimals_matchSwiftsOwn(value: Int) {
        let text = [UInt8](unsafeUninitializedCapacity: 32) { buffer, count in
            var writer = ByteWriter(buffer)
            writer.write("x")
            writer.writeDecimal(value)
            count = writer.count
        }
        #expect(String(decoding: text, as: UTF8.self) == "x\(value)")
    }

    @Test func decimals_ofTheWidestUnsignedValue() {
        let digits = ASCIIDecimal.withDigits(of: UInt64.max) { Array($0) }
        #expect(String(decoding: digits, as: UTF8.self) == "18446744073709551615")
    }

    @Test func serverTiming_writesMillisecondsWithThreeDecimals() {
        let timings = ServerTimings()
        timings.record("session", nanoseconds: 12_034_400)
        timings.record("filter", nanoseconds: 7_499)
        timings.record("session", nanoseconds: 1_000_000)  // a stage that ran twice counts both runs
        timings.note("cache", description: "hit")
        timings.record("gzip", nanoseconds: 123_456_789_500)
        #expect(timings.headerValue == #"session;dur=13.034, filter;dur=0.007, cache;desc="hit", gzip;dur=123456.790"#)
        #expect(ServerTimings().headerValue == "")
    }

    @Test func hostNames_takeExactlyRFC3986sCharacters() {
        let nameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%!$&'()*+,;=".utf8)
        for byte in UInt8.min...UInt8.max where byte != UInt8(ascii: ":") {
            let host: [UInt8] = [UInt8(ascii: "a"), byte, UInt8(ascii: "b")]
            #expect(host.withUnsafeBufferPointer(HostSyntax.isValid) == nameCharacters.contains(byte), "byte \(byte)")
        }
        for (host, isValid) in [("localhost:8080", true), ("[::1]:80", true), ("a:65536", false), ("a:abc", false), ("a:", true)] {
            #expect(Array(host.utf8).withUnsafeBufferPointer(HostSyntax.isValid) == isValid, "\(host)")
        }
    }

    @Test func headerNames_matchWithoutRegardToCase() {
        #expect(asciiCaseInsensitiveEquals("Content-Length", "content-length"))
        #expect(asciiCaseInsensitiveEquals("X-SESSION-ID-OF-A-LONGER-NAME", "x-session-id-of-a-longer-name"))
        #expect(!asciiCaseInsensitiveEquals("Content-Lengths", "content-length"))
        #expect(!asciiCaseInsensitiveEquals("Content-Lengtj", "content-length"))
        #expect(asciiCaseInsensitiveEquals(Substring("xHost"), "host") == false)
        #expect(asciiCaseInsensitiveEquals(Substring("xHost").dropFirst(), "host"))
        let headers: HTTPHeaders = ["accept-encoding": "gzip", "Host": "a", "HOST": "b"]
        #expect(headers["Accept-Encoding"] == "gzip")
        #expect(headers["host"] == "a")
        #expect(headers["Hos"] == nil)
        // Same length, first and last letters: told apart by the letters between.
        let lookalikes: HTTPHeaders = ["Accept-Xncoding": "x", "ACCEPT-ENCODING": "deflate", "accept-encoding": "gzip"]
        #expect(lookalikes["accept-encoding"] == "deflate")
        #expect(lookalikes.values(for: "Accept-Encoding") == ["deflate", "gzip"])
        #expect(lookalikes.containsToken("GZIP", in: "Accept-encoding"))
        #expect(!lookalikes.containsToken("x", in: "Accept-Encoding"))
        var trimmed = lookalikes
        trimmed.remove(name: "accept-ENCODING")
        #expect(trimmed.count == 1 && trimmed["Accept-Xncoding"] == "x" && trimmed["Accept-Encoding"] == nil)
    }

    @Test func serverTimings_boundToTheThreadForTheirScopeOnly() {
        #expect(ServerTimings.current == nil)
        let outer = ServerTimings(), inner = ServerTimings()
        ServerTimings.bind(outer) {
            #expect(ServerTimings.current === outer)
            ServerTimings.bind(inner) { #expect(ServerTimings.current === inner) }
            #expect(ServerTimings.current === outer)
            ServerTimings.measure("sort") {}
            let elsewhere = Thread { #expect(ServerTimings.current == nil) }  // not another thread's
            elsewhere.start()
            while !elsewhere.isFinished { usleep(1_000) }
        }
        #expect(ServerTimings.current == nil)
        #expect(outer.headerValue.hasPrefix("sort;dur=") && inner.isEmpty)
    }

    @Test func framingFieldsAreTheEncoders_inAnyCase() {
        var encoder = ResponseEncoder()
        var output: [UInt8] = []
        let response = Response(
            status: .ok, headers: ["content-LENGTH": "99", "CONNECTION": "upgrade", "transfer-encoding": "chunked", "X-Kept": "1"],
            body: .bytes([]))
        encoder.append(response, body: [], includeBody: true, connection: .keepAlive, to: &output)
        let text = String(decoding: output, as: UTF8.self).lowercased()
        #expect(text.contains("content-length: 0\r\n"))
        #expect(!text.contains("99") && !text.contains("upgrade") && !text.contains("chunked"))
        #expect(text.contains("x-kept: 1\r\n"))
    }

    @Test func heads_followWhatTheBufferHolds_atAnySize() {
        var encoder = ResponseEncoder()
        var output = Array("earlier".utf8)
        let long = String(repeating: "v", count: 5_000)  // past the stack's scratch room
        let response = Response(status: .ok, headers: ["X-Long": long, "X-Short": "s"], body: .bytes(Array("body".utf8)))
        encoder.append(response, body: Array("body".utf8), includeBody: true, connection: .omitted, to: &output)
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.hasPrefix("earlierHTTP/1.1 200 OK\r\n"))
        #expect(text.contains("\r\nX-Long: \(long)\r\nX-Short: s\r\nContent-Length: 4\r\n\r\nbody"))
        #expect(text.hasSuffix("\r\n\r\nbody"))
    }
}
