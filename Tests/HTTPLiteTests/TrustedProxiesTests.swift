import Basics
import Testing

@testable import HTTPLite

/// Behind a reverse proxy every connection comes from the proxy: the client's address is read
/// from the forwarding headers of a trusted proxy only, from the right, and never from a peer
/// that is not one.
@Suite struct TrustedProxiesTests {
    @Test func addressRanges_matchTheirBlock_inEitherSpellingOfIPv4() throws {
        let loopback = try #require(AddressRange("127.0.0.0/8"))
        #expect(loopback.contains(try #require(IPAddress("127.9.8.7"))))
        #expect(loopback.contains(try #require(IPAddress("::ffff:127.0.0.1"))), "an IPv4-mapped address is its IPv4 address")
        #expect(!loopback.contains(try #require(IPAddress("128.0.0.1"))))
        #expect(!loopback.contains(try #require(IPAddress("::1"))))
        let one = try #require(AddressRange("10.1.2.3"))
        #expect(one.contains(try #require(IPAddress("10.1.2.3"))))
        #expect(!one.contains(try #require(IPAddress("10.1.2.4"))))
        let odd = try #require(AddressRange("192.168.4.0/22"))
        #expect(odd.contains(try #require(IPAddress("192.168.7.255"))))
        #expect(!odd.contains(try #require(IPAddress("192.168.8.0"))))
        let v6 = try #require(AddressRange("2001:db8::/32"))
        #expect(v6.contains(try #require(IPAddress("2001:db8:ffff::1"))))
        #expect(!v6.contains(try #require(IPAddress("2001:db9::1"))))
        #expect(try #require(AddressRange("::ffff:10.0.0.0/104")).contains(try #require(IPAddress("10.200.0.1"))))
        #expect(try #require(AddressRange("0.0.0.0/0")).contains(try #require(IPAddress("8.8.8.8"))))
        for bad in ["", "10.0.0.0/33", "::/129", "10.0.0/8", "host.example", "10.0.0.0/-1", "10.0.0.0/x", "[::1]"] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
    }

    @Test func aList_parses_orNamesItsBadPart() throws {
        let proxies = try TrustedProxies(parsing: "127.0.0.1, 10.0.0.0/8,::1")
        #expect(proxies.ranges.count == 3 && proxies.trusts("10.4.4.4") && proxies.trusts("::1") && !proxies.trusts("11.0.0.1"))
        #expect(throws: InvalidAddressRange(text: "nginx")) { try TrustedProxies(parsing: "127.0.0.1,nginx") }
        #expect(throws: InvalidAddressRange.self) { try TrustedProxies(parsing: " , ") }
    }

    @Test func theClient_isTheRightmostHopThatIsNotATrustedProxy() throws {
        let proxies = try TrustedProxies(parsing: "127.0.0.1,10.0.0.0/8")
        func client(_ fields: [(String, String)]) -> String {
            var headers = HTTPHeaders()
            for (name, value) in fields { headers.add(name: name, value: value) }
            return proxies.clientAddress(peer: "127.0.0.1", headers: headers)
        }
        #expect(client([("X-Forwarded-For", "203.0.113.9")]) == "203.0.113.9")
        #expect(
            client([("X-Forwarded-For", "198.51.100.1, 203.0.113.9, 10.0.0.2")]) == "203.0.113.9", "a client's own claim is not believed")
        #expect(client([("X-Forwarded-For", "198.51.100.1"), ("X-Forwarded-For", "203.0.113.9")]) == "203.0.113.9", "lines in order")
        #expect(client([("X-Forwarded-For", "10.0.0.5, 10.0.0.2")]) == "10.0.0.5", "all trusted: the leftmost")
        #expect(client([("X-Forwarded-For", "203.0.113.9, unknown, 10.0.0.2")]) == "10.0.0.2", "the walk stops at a hop that is no address")
        #expect(client([("X-Forwarded-For", "garbage")]) == "127.0.0.1")
        #expect(
            client([("Forwarded", #"for=198.51.100.1;proto=https, for="[2001:db8:cafe::17]:4711";by=10.0.0.1"#)]) == "2001:db8:cafe::17")
        #expect(client([("Forwarded", "for=203.0.113.9:8443"), ("X-Forwarded-For", "198.51.100.1")]) == "203.0.113.9", "Forwarded first")
        #expect(client([("X-Real-IP", "203.0.113.7")]) == "203.0.113.7")
        #expect(client([("X-Forwarded-For", "::ffff:203.0.113.9")]) == "203.0.113.9")
        #expect(client([]) == "127.0.0.1", "a trusted peer that forwards nothing is the client")
    }

    @Test func aPeerThatIsNotTrusted_isTheClient_whateverItsHeadersSay() throws {
        let proxies = try TrustedProxies(parsing: "10.0.0.1")
        var headers = HTTPHeaders()
        headers.add(name: "X-Forwarded-For", value: "203.0.113.9")
        #expect(ClientAddressing(peer: "10.0.0.1", trustedProxies: proxies).clientAddress(headers) == "203.0.113.9")
        #expect(ClientAddressing(peer: "192.0.2.50", trustedProxies: proxies).clientAddress(headers) == "192.0.2.50")
        #expect(ClientAddressing(peer: "10.0.0.1", trustedProxies: .none).clientAddress(headers) == "10.0.0.1")
        #expect(ClientAddressing(peer: nil, trustedProxies: proxies).clientAddress(headers) == nil)
    }

    @Test func theHeadScreen_andTheHandler_seeTheClientsAddress() throws {
        let addressing = ClientAddressing(peer: "127.0.0.1", trustedProxies: try TrustedProxies(parsing: "127.0.0.1"))
        let screened = Locked<[String?]>([])
        var parser = RequestParser(
            limits: HTTPLimits(),
            headScreen: { head in
                screened.withLock { $0.append(head.remoteAddress) }
                return .accept(maxBodyBytes: 100)
            }, addressing: addressing)
        var buffer = InboundBuffer()
        let text =
            "POST /w HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: 203.0.113.9\r\nContent-Length: 2\r\n\r\nhi"
            + "GET /r HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: 198.51.100.4\r\n\r\n"
        Array(text.utf8).withUnsafeBytes { buffer.append($0) }
        var addresses: [String?] = []
        while case .request(let request) = parser.next(&buffer) { addresses.append(request.remoteAddress) }
        #expect(screened.withLock { $0 } == ["203.0.113.9"])
        #expect(addresses == ["203.0.113.9", "198.51.100.4"])
    }

    @Test func aRequestNamingAProxyHeader_isForwarded() {
        #expect(!Request(method: .get, path: "/").isForwarded)
        for name in ["Forwarded", "x-forwarded-for", "X-Real-IP"] {
            #expect(Request(method: .get, path: "/", headers: [name: "for=192.0.2.1"]).isForwarded, "\(name)")
        }
    }

    @Test func theAccessLog_namesTheClient() {
        var log = AccessLog(isEnabled: true)
        log.record(method: "GET", path: "/", status: 200, bodyBytes: 3, nanoseconds: 1000, client: "203.0.113.9", trace: nil)
        #expect(String(decoding: log.buffer, as: UTF8.self).hasSuffix(" GET / 200 3 0.001ms client=203.0.113.9\n"))
    }
}
