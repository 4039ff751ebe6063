import Basics
import HTTPLite
import ListService

/// `GET /{name}/live` (and `/{name}/map/live`): the list as Server-Sent Events. The request is
/// validated exactly like the list's, and every refusal (a bad parameter, a cap) is a
/// problem answer before the stream opens, since EventSource does not retry a non-200.
enum LiveRoutes {
    static func add(_ endpoint: CollectionEndpoint, service: CollectionService, credentials: Credentials, to router: inout Router) {
        for (path, purpose) in endpoint.listPaths(suffix: "/live") {
            router.get(path) { request in
                ServerTimings.current?.route = "live"
                let caller = try credentials.reader(of: request, isPublic: endpoint.isPublic)
                let resolution = try SessionResolution(request, store: service.sessions, now: service.now)
                var listRequest = ListRequest(request, caller: caller)
                // `lastEventId` and `ticket` are for clients that cannot set headers (the front
                // door read the ticket); neither is a list parameter.
                let queryToken = listRequest.parameters.last { $0.name == "lastEventId" }?.value
                listRequest.parameters.removeAll { $0.name == "lastEventId" || $0.name == "ticket" }
                let opening: LiveOpening
                do throws(LiveOpenError) {
                    opening = try endpoint.live(
                        listRequest, resolution.session, purpose, request.headers["Last-Event-ID"] ?? queryToken, .ownStream)
                } catch {
                    throw error.httpError
                }
                return .eventStream(headers: resolution.headers, start: opening.start)
            }
        }
    }

    /// `POST /live/tickets`: a one-use ticket for a signed-in caller's next live stream
    /// (`?ticket=`), since EventSource cannot send `Authorization`.
    static func addTickets(credentials: Credentials, to router: inout Router) {
        router.post("/live/tickets", headCheck: JSONBody.noFormBodyCheck) { request in
            guard let identity = request.caller.identity else {
                throw Credentials.unauthorized("A live ticket is for a signed-in caller: send Authorization: Bearer <token>.", error: nil)
            }
            let (ticket, expiresAt) = credentials.tickets.issue(for: identity, now: credentials.clock())
            var json = JSONWriter()
            json.beginObject()
            json.field("ticket", ticket)
            json.field("expiresAt", ISO8601.format(expiresAt))
            json.endObject()
            return .json(json.bytes)
        }
    }

    /// Hands one event to each event loop once, whatever the number of its streams; `written`
    /// once every loop wrote it (a list on a multiplexed stream counts as written when handed on).
    static func broadcast(_ bytes: [UInt8], to subscribers: [any LiveSubscriber], written: @escaping @Sendable () -> Void) {
        var streams: [ResponseStream] = []
        streams.reserveCapacity(subscribers.count)
        for subscriber in subscribers {
            if let stream = subscriber as? ResponseStream { streams.append(stream) } else { subscriber.send(bytes) }
        }
        ResponseStream.broadcast(bytes, to: streams, written: written)
    }
}

extension ResponseStream: LiveSubscriber {
    public func send(_ bytes: [UInt8]) { write(bytes) }
}

extension Response {
    /// A live stream's answer: `text/event-stream`, never stored, never buffered by a proxy;
    /// `start` gets the stream once the head is sent.
    static func eventStream(headers: HTTPHeaders, start: @escaping @Sendable (any LiveSubscriber) -> Void) -> Response {
        var headers = headers
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Accel-Buffering", value: "no")
        return Response(headers: headers, body: .stream { stream in start(stream) })
    }
}
