import Basics
import Foundation
import HTTPLite
import Testing

@testable import ListService
@testable import ListServiceHTTP

/// What the service does for browsers and the open network, in process through the whole
/// front door: gzip and its ETags, caching headers, HEAD, CORS, cross-site writes, `Host`
/// and API keys.
@Suite struct OpenNetworkTests {
    let service = makeWriteTestService()

    func handler(_ policy: AccessPolicy = .open) -> ServiceHandler { ServiceRoutes.makeHandler(service: service, policy: policy) }

    static let searched: [(String, String)] = [("filter", "pending"), ("q", "a")]
    static let gzip: HTTPHeaders = ["Accept-Encoding": "gzip, deflate, br"]

    /// Two orders still pending (so `complete` changes them), `o-…` ids.
    var pending: [String] { ids(handler().send(.get, "/orders", query: [("filter", "pending"), ("limit", "2")]).bodyJSON) }

    func status(of id: String) -> OrderStatus? { service.engine(Orders.self).state.item(id: id)?.status }

    func body(_ response: Response) -> [UInt8] {
        guard case .bytes(let bytes) = response.body else { return [] }
        return bytes
    }

    func vary(_ response: Response) -> Set<String> {
        Set(response.headers.values(for: "Vary").flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
    }

    // MARK: compression

    @Test func gzip_roundTrips_withItsOwnStrongETag_andVary() throws {
        let handler = handler()
        let plain = handler.send(.get, "/orders", query: Self.searched)
        let zipped = handler.send(.get, "/orders", query: Self.searched, headers: Self.gzip)
        #expect(plain.headers["Content-Encoding"] == nil && zipped.headers["Content-Encoding"] == "gzip")
        #expect(body(zipped).count < body(plain).count / 3, "a page of rows shrinks several times")
        #expect(gunzip(body(zipped)) == body(plain), "the same page")
        let plainTag = try #require(plain.headers["ETag"]), zippedTag = try #require(zipped.headers["ETag"])
        #expect(plainTag != zippedTag && !zippedTag.hasPrefix("W/") && zippedTag.hasPrefix("\""), "each coding its own strong tag")
        for response in [plain, zipped] {
            #expect(vary(response).isSuperset(of: ["Accept-Encoding", "Accept-Language"]))
            #expect(response.headers["Cache-Control"] == "private, no-cache")
        }
        for refused in ["gzip;q=0", "identity", "br", "gzip;q=0, *;q=1"] {
            #expect(
                handler.send(.get, "/orders", query: Self.searched, headers: ["Accept-Encoding": refused]).headers["Content-Encoding"]
                    == nil)
        }
        for accepted in ["*", "GZIP;q=0.5", "x-gzip", "br;q=1, gzip;q=0.1"] {
            #expect(
                handler.send(.get, "/orders", query: Self.searched, headers: ["Accept-Encoding": accepted]).headers["Content-Encoding"]
                    == "gzip")
        }
    }

    @Test func ifNoneMatch_worksWithEitherCodingsTag() throws {
        let handler = handler()
        let plainTag = try #require(handler.send(.get, "/orders", query: Self.searched).headers["ETag"])
        let zippedTag = try #require(handler.send(.get, "/orders", query: Self.searched, headers: Self.gzip).headers["ETag"])
        for (tag, accept, expected) in [(zippedTag, "gzip", zippedTag), (plainTag, "gzip", zippedTag), (zippedTag, "identity", plainTag)] {
            let response = handler.send(.get, "/orders", query: Self.searched, headers: ["Accept-Encoding": accept, "If-None-Match": tag])
            #expect(response.status == .notModified)
            #expect(response.headers["ETag"] == expected, "a 304 names the coding it would have sent")
            #expect(vary(response).contains("Accept-Encoding"))
        }
        #expect(
            handler.send(.get, "/orders", query: Self.searched, headers: ["Accept-Encoding": "gzip", "If-None-Match": "\"other-gzip\""])
                .status == .ok)
    }

    @Test func aPageIsCompressedOncePerVersion() throws {
        let (page, _) = try service.engine(Orders.self).page(for: ListCriteria<Orders>(ListRequest(parameters: []), now: service.now))
        let made = Locked(0)
        for _ in 0..<3 {
            _ = page.compressed { body, etag in
                made.withLock { $0 += 1 }
                return Compression.encoded(body, etag: etag)
            }
        }
        #expect(made.withLock { $0 } == 1)
        let handler = handler(), id = pending[0]
        let before = handler.send(.get, "/orders/\(id)", headers: Self.gzip)
        #expect(handler.send(.post, "/orders/\(id)/complete").status == .ok)
        let after = handler.send(.get, "/orders/\(id)", headers: Self.gzip)
        #expect(before.headers["ETag"] != after.headers["ETag"], "a new version, a new compressed body")
        #expect(
            (try? JSONSerialization.jsonObject(with: Data(gunzip(body(after)) ?? [])) as? [String: Any])?["status"] as? String
                == "completed")
    }

    @Test func smallAndStreamedBodies_goUncompressed() throws {
        let handler = handler()
        let health = handler.send(.get, "/health", headers: Self.gzip)
        #expect(health.headers["Content-Encoding"] == nil && vary(health).contains("Accept-Encoding"))
        let metrics = handler.send(.get, "/metrics", headers: Self.gzip)
        #expect(
            metrics.headers["Content-Encoding"] == "gzip"
                && gunzip(body(metrics)).map { String(decoding: $0, as: UTF8.self) }?.contains("listservice_requests_total") == true)
        let live = try handler.handle(Request(method: .get, path: "/orders/live", headers: Self.gzip))
        #expect(live.headers["Content-Encoding"] == nil && live.headers["Cache-Control"] == "no-store")
    }

    // MARK: caching headers and HEAD

    @Test func cacheControl_perResource() {
        let handler = handler()
        #expect(handler.send(.get, "/orders").headers["Cache-Control"] == "private, no-cache")
        #expect(handler.send(.get, "/orders/o-000001").headers["Cache-Control"] == "private, no-cache")
        #expect(handler.send(.get, "/quakes/map").headers["Cache-Control"] == "private, no-cache")
        let contract = handler.send(.get, "/openapi.yaml", headers: Self.gzip)
        #expect(contract.headers["Cache-Control"] == "public, max-age=3600" && contract.headers["ETag"] != nil)
        #expect(gunzip(body(contract)) == PackageResources.openapi_yaml)
        let tag = contract.headers["ETag"] ?? ""
        #expect(handler.send(.get, "/openapi.yaml", headers: ["If-None-Match": tag]).status == .notModified)
        for path in ["/health", "/metrics", "/orders/nope", "/nowhere"] {
            #expect(handler.send(.get, path).headers["Cache-Control"] == "no-store", "\(path)")
        }
        #expect(handler.send(.get, "/orders", query: [("limit", "0")]).headers["Cache-Control"] == "no-store", "errors are not stored")
        #expect(handler.send(.post, "/orders/o-000002/cancel").headers["Cache-Control"] == "no-store")
    }

    /// The front door adds its defaults by what a route declares, not by which headers it finds:
    /// an answer that chose its caching and coding keeps them; any other is `no-store` and gzip
    /// when the client takes it, whatever `Vary` or `Cache-Control` its route set.
    @Test func defaults_followTheRoutesDeclaration_notTheHeadersPresent() throws {
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 4096)
        var router = Router()
        router.get("/chosen") { _ in
            .json(big, headers: ["Cache-Control": "public, max-age=60", "Vary": "Accept-Language"], choseCachingAndCoding: true)
        }
        router.get("/undeclared") { _ in .json(big, headers: ["Cache-Control": "public, max-age=60", "Vary": "Accept-Language"]) }
        let handler = ServiceHandler(router: router, policy: .open, metrics: AccessMetrics())

        let chosen = handler.send(.get, "/chosen", headers: Self.gzip)
        #expect(chosen.headers["Cache-Control"] == "public, max-age=60" && chosen.headers["Content-Encoding"] == nil)
        #expect(vary(chosen) == ["Accept-Language"] && body(chosen) == big)

        let undeclared = handler.send(.get, "/undeclared", headers: Self.gzip)
        #expect(undeclared.headers["Cache-Control"] == "no-store" && undeclared.headers.values(for: "Cache-Control").count == 1)
        #expect(undeclared.headers["Content-Encoding"] == "gzip" && gunzip(body(undeclared)) == big)
        #expect(vary(undeclared) == ["Accept-Language", "Accept-Encoding"] && undeclared.headers.values(for: "Vary").count == 1)
    }

    @Test func head_answersEveryGetRouteWithItsHeaders() throws {
        let handler = handler()
        let session: HTTPHeaders = ["X-Session-ID": "head-check", "Accept-Encoding": "gzip"]
        for path in [
            "/health", "/health/ready", "/openapi.yaml", "/orders", "/orders/o-000001", "/tasks", "/quakes", "/quakes/map", "/metrics",
        ] {
            let get = handler.send(.get, path, headers: session)
            let head = handler.send(.head, path, headers: session)
            #expect(head.status == get.status, "\(path)")
            let names = { (response: Response) in Set(response.headers.map(\.name)) }
            #expect(names(head) == names(get), "\(path)")
            for name in ["Content-Type", "Content-Encoding", "ETag", "Cache-Control", "Vary"] {
                #expect(head.headers[name] == get.headers[name], "\(path) \(name)")
            }
        }
    }

    // MARK: CORS

    @Test func cors_listedOriginsGetCredentials_anyOriginDoesNot_othersNothing() throws {
        let listed = handler(AccessPolicy(hosts: .any, cors: CORSPolicy(origins: ["https://app.example"]), keys: .open))
        let response = listed.send(.get, "/orders", headers: ["Origin": "https://app.example"])
        #expect(response.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(response.headers["Access-Control-Allow-Credentials"] == "true")
        #expect(response.headers["Access-Control-Expose-Headers"] == "ETag, Location, X-Cache, Retry-After, Idempotent-Replayed")
        #expect(vary(response).contains("Origin"))
        let live = try listed.handle(Request(method: .get, path: "/orders/live", headers: ["Origin": "https://app.example"]))
        #expect(live.headers["Access-Control-Allow-Origin"] == "https://app.example", "EventSource with credentials works across origins")
        #expect(live.headers["Access-Control-Allow-Credentials"] == "true" && live.headers["Content-Encoding"] == nil)
        let stranger = listed.send(.get, "/orders", headers: ["Origin": "https://evil.example"])
        #expect(stranger.status == .ok && stranger.headers["Access-Control-Allow-Origin"] == nil && vary(stranger).contains("Origin"))

        let any = handler(AccessPolicy(hosts: .any, cors: CORSPolicy(origins: ["*", "https://app.example"]), keys: .open))
        let anyone = any.send(.get, "/orders", headers: ["Origin": "https://anyone.example"])
        #expect(anyone.headers["Access-Control-Allow-Origin"] == "*" && anyone.headers["Access-Control-Allow-Credentials"] == nil)
        #expect(any.send(.get, "/orders", headers: ["Origin": "https://app.example"]).headers["Access-Control-Allow-Credentials"] == "true")
        #expect(any.send(.get, "/orders", headers: ["Origin": "null"]).headers["Access-Control-Allow-Origin"] == nil)

        let off = handler()
        let plain = off.send(.get, "/orders", headers: ["Origin": "https://app.example"])
        #expect(plain.headers["Access-Control-Allow-Origin"] == nil && !vary(plain).contains("Origin"))
    }

    @Test func cors_preflight() throws {
        let handler = handler(AccessPolicy(hosts: .any, cors: CORSPolicy(origins: ["https://app.example"]), keys: .open))
        let preflight: HTTPHeaders = [
            "Origin": "https://app.example", "Access-Control-Request-Method": "PATCH",
            "Access-Control-Request-Headers": "content-type, if-match",
        ]
        let allowed = handler.send(.options, "/orders/o-000001", headers: preflight)
        #expect(allowed.status == .noContent)
        #expect(allowed.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(allowed.headers["Access-Control-Allow-Credentials"] == "true")
        let methods = Set(
            (allowed.headers["Access-Control-Allow-Methods"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(methods.isSuperset(of: ["GET", "PATCH", "DELETE"]) && !methods.contains("POST"))
        #expect(
            allowed.headers["Access-Control-Allow-Headers"]
                == "Content-Type, If-Match, If-None-Match, Authorization, X-Session-ID, Last-Event-ID, Idempotency-Key")
        #expect(Int(allowed.headers["Access-Control-Max-Age"] ?? "") ?? 0 > 0)
        var foreign = preflight
        foreign.replaceOrAdd(name: "Origin", value: "https://evil.example")
        let refused = handler.send(.options, "/orders/o-000001", headers: foreign)
        #expect(refused.status == .forbidden && refused.headers["Content-Type"] == "application/problem+json")
        #expect(refused.headers["Access-Control-Allow-Origin"] == nil)
        #expect(handler.send(.options, "/nowhere", headers: preflight).status == .notFound)
        let metrics = String(decoding: body(handler.send(.get, "/metrics")), as: UTF8.self)
        #expect(metrics.contains("listservice_refused_origins_total 1\n"))
    }

    // MARK: cross-site requests and DNS rebinding

    @Test func crossSiteFormPosts_areRefused_andChangeNothing() {
        let id = pending[0]
        let handler = handler(AccessPolicy(hosts: AllowedHosts(names: [], boundTo: "127.0.0.1"), cors: .off, keys: .open))
        let form: HTTPHeaders = ["Host": "localhost:8080", "Content-Type": "application/x-www-form-urlencoded"]
        var foreign = form
        foreign.add(name: "Origin", value: "https://evil.example")
        #expect(handler.send(.post, "/orders/\(id)/complete", headers: foreign).status == .forbidden)
        #expect(handler.send(.delete, "/orders/\(id)", headers: foreign).status == .forbidden)
        #expect(handler.send(.post, "/orders/\(id)/complete", headers: form).status == .unsupportedMediaType, "a form is no JSON")
        #expect(
            handler.send(.delete, "/orders/\(id)", headers: ["Host": "localhost", "Content-Type": "text/plain"]).status
                == .unsupportedMediaType)
        #expect(status(of: id) == .pending, "nothing changed")
        #expect(service.engine(Orders.self).state.count == 50)

        let sameOrigin: HTTPHeaders = ["Host": "localhost:8080", "Origin": "http://localhost:8080"]
        #expect(handler.send(.post, "/orders/\(id)/complete", headers: sameOrigin).status == .ok, "the service's own pages may write")
        #expect(
            handler.send(.get, "/orders", headers: ["Host": "localhost", "Origin": "https://evil.example"]).status == .ok, "reads pass")
    }

    @Test func foreignHosts_areRefused_onLoopback() {
        let id = pending[0]
        let loopback = handler(AccessPolicy(hosts: AllowedHosts(names: [], boundTo: "127.0.0.1"), cors: .off, keys: .open))
        for host in ["localhost", "localhost:8080", "127.0.0.1:1", "[::1]:8080", "LOCALHOST"] {
            #expect(loopback.send(.get, "/health", headers: ["Host": host]).status == .ok, "\(host)")
        }
        for host in ["attacker.example", "attacker.example:8080", "localhost.attacker.example", "127.0.0.1.nip.io"] {
            let refused = loopback.send(.post, "/orders/\(id)/complete", headers: ["Host": host])
            #expect(refused.status == .misdirectedRequest && refused.headers["Content-Type"] == "application/problem+json", "\(host)")
        }
        #expect(status(of: id) == .pending)
        let named = handler(AccessPolicy(hosts: AllowedHosts(names: ["api.example"], boundTo: "0.0.0.0"), cors: .off, keys: .open))
        #expect(named.send(.get, "/health", headers: ["Host": "api.example:443"]).status == .ok)
        #expect(named.send(.get, "/health", headers: ["Host": "localhost"]).status == .misdirectedRequest)
        let network = handler(AccessPolicy(hosts: AllowedHosts(names: [], boundTo: "0.0.0.0"), cors: .off, keys: .open))
        #expect(network.send(.get, "/health", headers: ["Host": "anything.example"]).status == .ok)
    }

    // MARK: keys

    @Test func keys_guardWrites_inConstantTime_andRefusalsChangeNothing() throws {
        let id = pending[0]
        let keyed = handler(AccessPolicy(hosts: .any, cors: .off, keys: APIKeys(keys: ["k-one", "k-two"], boundToLoopback: true)))
        let missing = keyed.send(.post, "/orders/\(id)/complete")
        #expect(missing.status == .unauthorized && missing.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
        for wrong in ["Bearer k-on", "Bearer k-one2", "Basic k-one", "Bearer ", "k-one"] {
            let refused = keyed.send(.post, "/orders/\(id)/complete", headers: ["Authorization": wrong])
            #expect(refused.status == .unauthorized && refused.headers["Content-Type"] == "application/problem+json", "\(wrong)")
        }
        #expect(
            keyed.send(.post, "/orders", headers: ["Authorization": "Bearer nope"], json: Order.validCreateBody).status == .unauthorized)
        #expect(keyed.send(.put, "/session/selection", json: #"{"collection":"quakes","id":null}"#).status == .unauthorized)
        #expect(status(of: id) == .pending && service.engine(Orders.self).state.count == 50)
        #expect(keyed.send(.get, "/orders").status == .ok, "reads stay open")
        #expect(keyed.send(.post, "/orders/\(id)/complete", headers: ["Authorization": "bearer k-two"]).status == .ok)
        let metrics = String(decoding: body(keyed.send(.get, "/metrics")), as: UTF8.self)
        #expect(metrics.contains("listservice_refused_authentications_total 8\n"))

        let reads = handler(AccessPolicy(hosts: .any, cors: .off, keys: APIKeys(keys: ["k"], requireForReads: true, boundToLoopback: true)))
        #expect(reads.send(.get, "/orders").status == .unauthorized)
        #expect(reads.send(.get, "/orders", headers: ["Authorization": "Bearer k"]).status == .ok)
        #expect(reads.send(.get, "/health").status == .ok && reads.send(.get, "/health/ready").status == .ok)
    }

    @Test func noKeys_loopbackWrites_networkRefuses_unlessAnonymousAllowed() {
        let (id, other) = (pending[0], pending[1])
        let loopback = handler(AccessPolicy(hosts: .any, cors: .off, keys: APIKeys(keys: [], boundToLoopback: true)))
        #expect(loopback.send(.post, "/orders/\(id)/complete").status == .ok)
        let network = handler(AccessPolicy(hosts: .any, cors: .off, keys: APIKeys(keys: [], boundToLoopback: false)))
        let refused = network.send(.post, "/orders/\(other)/complete")
        #expect(refused.status == .unauthorized && refused.headers["WWW-Authenticate"] != nil)
        #expect(status(of: other) == .pending)
        #expect(network.send(.get, "/orders").status == .ok)
        let anonymous = handler(
            AccessPolicy(hosts: .any, cors: .off, keys: APIKeys(keys: [], boundToLoopback: false, allowsAnonymousWrites: true)))
        #expect(anonymous.send(.post, "/orders/\(other)/complete").status == .ok)
    }

    @Test func keysAndOrigins_parse() {
        #expect(APIKeys.parse("# keys\nalpha\n beta , gamma # third\n\n") == ["alpha", "beta", "gamma"])
        #expect(CORSPolicy.validate("*") == nil && CORSPolicy.validate("https://app.example:8443") == nil)
        for bad in ["app.example", "https://app.example/path", "ftp://x", "https://"] { #expect(CORSPolicy.validate(bad) != nil, "\(bad)") }
    }
}
