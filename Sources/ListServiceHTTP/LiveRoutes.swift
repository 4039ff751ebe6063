import HTTPLite
import ListService

/// `GET /{name}/live` (and `/{name}/map/live`): the list as Server-Sent Events. The request is
/// validated exactly like the list's, and every refusal (a bad parameter, a cap) is a
/// problem answer before the stream opens, since EventSource does not retry a non-200.
enum LiveRoutes {
    static func add(_ endpoint: CollectionEndpoint, service: CollectionService, credentials: Credentials, to router: inout Router) {
        for (path, purpose) in endpoint.listPaths(suffix: "/live") {
            router.get(path) { request in
                let caller = try credentials.reader(of: request, isPublic: endpoint.isPublic)
                let resolution = try SessionResolution(request, store: service.sessions, now: service.now)
                var listRequest = ListRequest(request, caller: caller)
                // `lastEventId` is for clients that cannot set headers; it is not a list parameter.
                let queryToken = listRequest.parameters.last { $0.name == "lastEventId" }?.value
                listRequest.parameters.removeAll { $0.name == "lastEventId" }
                let opening: LiveOpening
                do throws(LiveOpenError) {
                    opening = try endpoint.live(listRequest, resolution.session, purpose, request.headers["Last-Event-ID"] ?? queryToken)
                } catch {
                    throw error.httpError
                }
                var headers = resolution.headers
                headers.add(name: "Content-Type", value: "text/event-stream")
                headers.add(name: "Cache-Control", value: "no-store")
                headers.add(name: "X-Accel-Buffering", value: "no")
                return Response(headers: headers, body: .stream { stream in opening.start(stream) })
            }
        }
    }

    /// Hands one event to each event loop once, whatever the number of its streams.
    static func broadcast(_ bytes: [UInt8], to subscribers: [any LiveSubscriber]) {
        var streams: [ResponseStream] = []
        streams.reserveCapacity(subscribers.count)
        for subscriber in subscribers {
            if let stream = subscriber as? ResponseStream { streams.append(stream) } else { subscriber.send(bytes) }
        }
        ResponseStream.broadcast(bytes, to: streams)
    }
}

extension ResponseStream: LiveSubscriber {
    public func send(_ bytes: [UInt8]) { write(bytes) }
}
