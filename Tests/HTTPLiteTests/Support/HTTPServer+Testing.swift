import Foundation
@testable import HTTPLite

extension ServerConfiguration {
    /// A configuration for tests: an ephemeral port, no access log, short timeouts.
    static func makeForTesting(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.isAccessLogEnabled = false
        configuration.errorLog = { _ in }  // tests assert on statuses; a passing run prints nothing
        configuration.loopCount = 2
        configuration.shutdownGracePeriod = .seconds(2)
        adjust(&configuration)
        return configuration
    }
}

/// A router with the endpoints the socket tests need.
func makeTestRouter() -> Router {
    var router = Router()
    router.get("/hello") { _ in Response(contentType: "text/plain", bytes: Array("hello".utf8)) }
    router.post("/echo") { request in Response(contentType: "application/octet-stream", bytes: request.body) }
    router.get("/slow") { _ in
        usleep(300_000)
        return Response(contentType: "text/plain", bytes: Array("slow".utf8))
    }
    router.get("/fail") { _ in throw CancellationError() }
    router.get("/deferred") { _ in
        .deferred { pending in
            Thread.detachNewThread {
                usleep(50_000)
                pending.complete(Response(status: .created, contentType: "text/plain", bytes: Array("later".utf8)))
            }
        }
    }
    router.get("/stream") { _ in
        Response(
            headers: ["Content-Type": "text/event-stream"],
            body: .stream { stream in
                Thread.detachNewThread {
                    for index in 1...3 {
                        stream.write("event \(index)\n")
                        usleep(20_000)
                    }
                    stream.finish()
                }
            })
    }
    return router
}

/// Runs `body` against a live server on an ephemeral port, always shutting it down.
func withServer(
    _ configuration: ServerConfiguration = .makeForTesting(), router: Router = makeTestRouter(),
    _ body: (HTTPServer) throws -> Void
) throws {
    let server = try HTTPServer(configuration: configuration, handler: router.handle)
    defer {
        server.shutdown()
        server.waitUntilStopped()
    }
    try body(server)
}
