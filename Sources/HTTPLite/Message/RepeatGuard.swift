/// Leave for a connection to answer a repeat of a request (the very same bytes, next on the
/// same connection: a client polling, a load balancer checking) with the answer it gave the
/// first time, without parsing, routing or encoding it again. A handler gives it with its
/// answer (`Response.repeatGuard`); the connection keeps that answer while the client repeats
/// the request, and asks `verdict` at each repeat whether it still stands.
public protocol RepeatGuard: AnyObject, Sendable {
    /// The head fields every repeat's answer carries, from those of the first answer (say,
    /// without the timings of stages a repeat skips); asked once.
    func fieldsForRepeats(of first: HTTPHeaders) -> HTTPHeaders
    /// What answers `request`, a repeat: the request as parsed the first time, with a trace of
    /// its own. Whatever handling the request again would have done besides answering (checks,
    /// counts) is done here.
    func verdict(onRepeatOf request: Request) -> RepeatVerdict
}

/// How a repeat of a request is answered.
public enum RepeatVerdict: Sendable {
    /// The first answer still stands: it is sent again, its `Date` brought up to date.
    case sameAnswer
    /// This answer instead (a refusal, say).
    case answer(Response)
    /// The handler answers the request given (the repeat, with what the check learned of it).
    case handle(Request)
}
