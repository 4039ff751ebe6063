import Basics
import HTTPLite
import ListService

/// A route's leave to answer repeats of a request (`RepeatGuard`), behind the front door: each
/// repeat passes the access checks again (a token may have expired, a key been rotated, a rate
/// run out), as the same caller, before the route's guard judges it; a repeat answered again
/// is counted in the route's answer times as any answer is.
final class CheckedRepeat: RepeatGuard {
    private let routeGuard: any RepeatGuard
    private let caller: Caller
    private let route: RouteLatencies.Route
    private let handler: ServiceHandler

    init(_ routeGuard: any RepeatGuard, caller: Caller, route: RouteLatencies.Route, handler: ServiceHandler) {
        (self.routeGuard, self.caller, self.route, self.handler) = (routeGuard, caller, route, handler)
    }

    func fieldsForRepeats(of first: HTTPHeaders) -> HTTPHeaders { routeGuard.fieldsForRepeats(of: first) }

    func verdict(onRepeatOf request: Request) -> RepeatVerdict {
        let started = MonotonicClock.nanoseconds()
        var checked = request
        do throws(HTTPError) {
            checked.sender = try handler.checkAccess(request)
        } catch {
            return .answer(handler.finish(error.response, for: request))  // as the handler answers a refusal
        }
        // The handler takes a request whose sender is set as checked already.
        guard checked.caller == caller else { return .handle(checked) }
        let verdict = routeGuard.verdict(onRepeatOf: checked)
        if case .sameAnswer = verdict {
            handler.latencies.observe(route, seconds: Double(MonotonicClock.nanoseconds() - started) / 1e9, trace: request.trace)
        }
        return verdict
    }
}
