import Testing

@testable import HTTPLite

@Suite struct RouterTests {
    let router: Router = {
        var router = Router()
        router.get("/orders") { _ in .json(Array("list".utf8)) }
        router.get("/orders/:id") { request in .json(Array((request.pathParameters["id"] ?? "").utf8)) }
        router.delete("/orders/:id") { _ in Response(status: .noContent) }
        router.post("/orders/import") { _ in .json(Array("imported".utf8)) }
        return router
    }()

    private func body(_ response: Response) -> String {
        guard case .bytes(let bytes) = response.body else { return "<stream>" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a request may change data: never for a safe method, as its route declares for
    /// an unsafe one (true unless it says otherwise), and true for one no route takes.
    @Test func changesData_isWhatTheRouteDeclares() {
        var router = self.router
        router.put("/streams/:id/lists/:key", changesData: false) { _ in Response(status: .ok) }
        #expect(!router.changesData(Request(method: .get, path: "/orders")))
        #expect(router.changesData(Request(method: .delete, path: "/orders/o-1")))
        #expect(router.changesData(Request(method: .post, path: "/orders/import")))
        #expect(!router.changesData(Request(method: .put, path: "/streams/s/lists/k")))
        #expect(router.changesData(Request(method: .put, path: "/nowhere")))
    }

    /// A route's head check refuses on the head (`screen`) and again before its handler
    /// (`handle`), so the handler never repeats it.
    @Test func aHeadCheck_refusesBeforeTheBodyAndBeforeTheHandler() throws {
        var router = Router(defaultMaxBodyBytes: 100)
        router.post(
            "/upload", maxBodyBytes: 1_000,
            headCheck: { request throws(HTTPError) in
                guard request.headers["Content-Type"] == "text/plain" else {
                    throw HTTPError(.unsupportedMediaType, code: "unsupported-media-type", detail: "text only")
                }
            }
        ) { _ in .json(Array("handled".utf8)) }
        let wrong = Request(method: .post, path: "/upload", headers: ["Content-Type": "image/png"])
        #expect(throws: HTTPError.self) { try router.screen(wrong) }
        #expect(throws: HTTPError.self) { try router.handle(wrong) }
        let right = Request(method: .post, path: "/upload", headers: ["Content-Type": "text/plain"])
        #expect(try router.screen(right) == 1_000)
        #expect(body(try router.handle(right)) == "handled")
    }

    @Test func safeMethods_areThoseOfRFC9110() {
        #expect(HTTPMethod.allCases.filter(\.isSafe) == [.get, .head, .options, .trace, .query])
    }

    @Test func namedParameter_isCaptured() throws {
        #expect(body(try router.handle(Request(method: .get, path: "/orders/o-42"))) == "o-42")
    }

    @Test func unknownPath_is404() {
        for path in ["/nothing", "/orders/", "/orders%2Fo-1"] {
            do {
                _ = try router.handle(Request(method: .get, path: path))
                Issue.record("\(path) was routed")
            } catch let error as HTTPError {
                #expect(error.status == .notFound, "\(path)")
                #expect(error.code == "not-found")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func wrongMethod_is405WithAllow() {
        do {
            _ = try router.handle(Request(method: .post, path: "/orders/1"))
            Issue.record("expected 405")
        } catch let error as HTTPError {
            #expect(error.status == .methodNotAllowed)
            #expect(error.headers["Allow"] == "GET, HEAD, DELETE, OPTIONS")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func literalSegments_winOverParameters() throws {
        #expect(body(try router.handle(Request(method: .post, path: "/orders/import"))) == "imported")
        do {
            _ = try router.handle(Request(method: .get, path: "/orders/import"))
            Issue.record("expected 405")
        } catch let error as HTTPError {
            #expect(error.status == .methodNotAllowed)
            #expect(error.headers["Allow"] == "POST, OPTIONS")
        }
    }

    @Test func head_usesTheGetHandler() throws {
        #expect(body(try router.handle(Request(method: .head, path: "/orders"))) == "list")
    }

    @Test func options_listsAllowedMethods() throws {
        let response = try router.handle(Request(method: .options, path: "/orders"))
        #expect(response.status == .noContent)
        #expect(response.headers["Allow"] == "GET, HEAD, OPTIONS")
    }
}
