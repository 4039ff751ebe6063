import Basics
import HTTPLite
import ListService

/// The service's front door. A request first passes the access checks, in this order, each
/// refusing before anything changes: its `Host` (421), a CORS preflight (answered here, 403
/// for an origin not allowed), an unsafe method from a browser origin not allowed (403), its
/// credential (401: a token or key that does not verify, or none where one is needed), which
/// also says who asks (`Request.caller`, for the routes), and the caller's rate (429); a
/// request with a body passes them on its head (`screen`), before the body is read, and its
/// caller travels with it. The router then answers, and every answer leaves with the CORS
/// headers its origin gets and a `Vary` that names what it depends on; an answer whose route
/// did not choose its caching and coding (`Response.choseCachingAndCoding`: a page or a
/// static file does) is `no-store` and goes in the coding the client accepts. Around the
/// routing it binds the request's `ServerTimings` (whose stages become `Server-Timing`, and
/// whose route kind picks the latency histogram) and its `RequestTrace` (which its writes keep
/// for their commit's log line), and a traced request's answer reports its trace.
package final class ServiceHandler: Sendable {
    let router: Router
    let policy: AccessPolicy
    let metrics: AccessMetrics
    /// Each route kind's answer times (`/metrics`).
    let latencies: RouteLatencies

    init(router: Router, policy: AccessPolicy, metrics: AccessMetrics, latencies: RouteLatencies = RouteLatencies()) {
        (self.router, self.policy, self.metrics, self.latencies) = (router, policy, metrics, latencies)
    }

    package func handle(_ request: Request) throws -> Response {
        var response: Response
        // The stages the answer goes through, for its `Server-Timing` (lists and rows record them).
        let timings = ServerTimings()
        let started = MonotonicClock.nanoseconds()
        do {
            // A request with a body passed the checks already (`screen`).
            let checked = request.sender is Caller ? nil : try checkAccess(request)
            response = try ServerTimings.bind(timings) {
                guard let checked else { return try route(request) }
                var request = request  // the one copy: a request captured as a `var` is copied at every use
                request.sender = checked
                return try route(request)
            }
        } catch let error as HTTPError {
            response = error.response
        }
        if !timings.isEmpty { response.headers.add(name: "Server-Timing", value: timings.headerValue) }
        let routeKind = timings.route.flatMap(RouteLatencies.Route.init(rawValue:))
        if let routeKind { observe(routeKind, of: &response, started: started, trace: request.trace) }
        return finish(response, for: request)
    }

    /// The router's answer, or the one `admit` gives first; an untraced request (the usual
    /// case) binds no trace: the loop thread has none bound.
    private func route(_ request: Request) throws -> Response {
        guard let label = request.trace.label else { return try admit(request) ?? router.handle(request) }
        return try RequestTrace.$current.withValue(label) { try admit(request) ?? router.handle(request) }
    }

    /// Counts the answer's time in its route's histogram: now, or when a deferred answer (a
    /// write, once durable) comes.
    private func observe(_ route: RouteLatencies.Route, of response: inout Response, started: Int64, trace: TraceContext) {
        let latencies = latencies
        let seconds: @Sendable () -> Double = { Double(MonotonicClock.nanoseconds() - started) / 1e9 }
        guard case .deferred(let start) = response.body else {
            return latencies.observe(route, seconds: seconds(), trace: trace)
        }
        response.body = .deferred { pending in
            start(
                DeferredResponse { answer in
                    latencies.observe(route, seconds: seconds(), trace: trace)
                    pending.complete(answer)
                })
        }
    }

    /// Judges a request with a body from its head (the server's `HeadScreen`): every refusal
    /// `handle` would give that needs no body (the access checks, then 404, 405, 415) comes
    /// before a byte of the body is read; else the largest body its route takes (413 past it).
    package func screen(_ head: Request) -> HeadVerdict {
        do throws(HTTPError) {
            var head = head
            let caller = try checkAccess(head)
            head.sender = caller
            return .accept(maxBodyBytes: try router.screen(head), sender: caller)
        } catch {
            return .refuse(finish(error.response, for: head))
        }
    }

    /// A preflight's answer; nil when the router should answer.
    private func admit(_ request: Request) throws -> Response? {
        guard isPreflight(request), let origin = crossOrigin(of: request) else { return nil }
        var answer = try router.handle(request)  // 204 with the path's `Allow`, or 404
        if answer.status == .noContent, let allow = answer.headers["Allow"] {
            for field in policy.cors.preflightHeaders(for: origin, allow: allow) {
                answer.headers.add(name: field.name, value: field.value)
            }
        }
        answer.headers.add(name: "Vary", value: "Access-Control-Request-Method, Access-Control-Request-Headers")
        return answer
    }

    /// The checks on the head, in order: the `Host` (421); a browser origin not allowed, for a
    /// preflight or an unsafe method (403); the credential (401), which a cross-origin
    /// preflight, sent by browsers without credentials, does not need. Answers who asks.
    func checkAccess(_ request: Request) throws(HTTPError) -> Caller {
        let host = request.headers["Host"]
        guard policy.hosts.admits(host) else {
            metrics.refusedHosts.add(1, ordering: .relaxed)
            throw HTTPError(
                .misdirectedRequest, code: "misdirected-request",
                detail: "This server does not answer to the host '\(host ?? "")' (see --allowed-host).",
                parameter: "Host")
        }
        guard let origin = crossOrigin(of: request) else { return try checkCredential(request) }
        let isAllowed = policy.cors.grant(for: origin) != .refused
        if isPreflight(request) {
            guard isAllowed else { throw refusedOrigin(origin, "may not call this service from a browser") }
            return .anonymous
        }
        if !isAllowed && !request.method.isSafe { throw refusedOrigin(origin, "may not change anything here") }
        return try checkCredential(request)
    }

    /// The request's `Origin` when it is not the service's own.
    private func crossOrigin(of request: Request) -> String? {
        guard let origin = request.headers["Origin"], !AccessPolicy.isSameOrigin(origin, host: request.headers["Host"]) else {
            return nil
        }
        return origin
    }

    private func isPreflight(_ request: Request) -> Bool {
        request.method == .options && request.headers["Access-Control-Request-Method"] != nil
    }

    /// The caller, once their credential verified and their rate allows one more request.
    /// What a request needs depends on whether its route may change data (`Router.changesData`).
    private func checkCredential(_ request: Request) throws(HTTPError) -> Caller {
        let caller: Caller
        let changesData = router.changesData(request)
        do throws(HTTPError) {
            caller = try policy.credentials.caller(of: request, keys: policy.keys, changesData: changesData)
        } catch {
            metrics.refusedAuthentications.add(1, ordering: .relaxed)
            throw error
        }
        if let refusal = policy.rates?.refusal(of: request, by: caller, isWrite: changesData) { throw refusal }
        return caller
    }

    private func refusedOrigin(_ origin: String, _ what: String) -> HTTPError {
        metrics.refusedOrigins.add(1, ordering: .relaxed)
        return HTTPError(
            .forbidden, code: "origin-not-allowed", detail: "Pages from \(origin) \(what) (see --cors-origin).",
            parameter: "Origin")
    }

    /// The headers every answer gets on its way out; a deferred answer gets them when it comes.
    func finish(_ response: Response, for request: Request) -> Response {
        switch response.body {
        case .deferred(let start):
            // The answer needs only the head: the body (an import's megabytes) is not kept while it is made.
            let head = request.withoutBody
            return .deferred { pending in
                // A write queued by `start` keeps the request's trace for its commit's log line.
                RequestTrace.$current.withValue(head.trace.label) {
                    start(DeferredResponse { answer in pending.complete(self.finish(answer, for: head)) })
                }
            }
        case .stream, .download:
            var response = response
            addAccessHeaders(to: &response, for: request)
            addTraceHeaders(to: &response, for: request)
            return response
        case .bytes, .parts:
            var response = response
            addTraceHeaders(to: &response, for: request)
            if !response.choseCachingAndCoding {
                response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
                if Compression.isCompressible(response.headers["Content-Type"]) {
                    addVary("Accept-Encoding", to: &response)
                    Compression.compress(&response, for: request)
                }
            }
            addAccessHeaders(to: &response, for: request)
            return response
        }
    }

    /// Where the answer sits in a caller's trace, for a caller that traces the request (it
    /// sent a `traceparent`): `traceresponse` names the trace and this server's span (W3C
    /// Trace Context level 2), and the caller's `tracestate` is passed on. Other answers say
    /// nothing (their trace, begun here, is in the access log).
    private func addTraceHeaders(to response: inout Response, for request: Request) {
        guard request.trace.isContinued else { return }
        response.headers.add(name: "traceresponse", value: request.trace.traceparent)
        if let state = request.trace.state { response.headers.add(name: "tracestate", value: state) }
    }

    /// CORS headers for an allowed origin, and `Vary: Origin` whenever CORS is on.
    private func addAccessHeaders(to response: inout Response, for request: Request) {
        guard policy.cors.isEnabled else { return }
        addVary("Origin", to: &response)
        guard let origin = request.headers["Origin"], response.headers["Access-Control-Allow-Origin"] == nil else { return }
        for field in policy.cors.responseHeaders(for: origin) { response.headers.add(name: field.name, value: field.value) }
    }

    /// Names one more request header the answer depends on, in its one `Vary` field.
    private func addVary(_ name: String, to response: inout Response) {
        response.headers.replaceOrAdd(name: "Vary", value: response.headers["Vary"].map { "\($0), \(name)" } ?? name)
    }
}

extension Request {
    /// The request with its body left out.
    fileprivate var withoutBody: Request {
        var head = self
        head.body = []
        return head
    }
}

extension TraceContext {
    /// `<trace-id>-<span-id>` when the caller is tracing the request (it sent a
    /// `traceparent`), for the commit log of its writes; nil otherwise.
    fileprivate var label: String? { isContinued ? "\(traceID)-\(spanID)" : nil }
}
