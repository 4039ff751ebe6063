import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPTransport {
    /// Opens `path` as a `text/event-stream` and answers its events as they arrive; a refusal
    /// (any status but 200) throws its problem before any event. Ending the iteration (or
    /// cancelling its task) closes the connection; so does `silenceTimeout` seconds without a
    /// byte (the service's heartbeats keep a healthy stream talking; a peer that vanished
    /// without a FIN does not).
    func events(_ path: String, lastEventID: String?, silenceTimeout: Double) async throws(ListServiceError)
        -> AsyncThrowingStream<ServerSentEvent, any Error>
    {
        try await withToken { (token) throws(ListServiceError) in
            var headers = ["Accept": "text/event-stream", "Cache-Control": "no-cache"]
            if let lastEventID { headers["Last-Event-ID"] = lastEventID }
            var request = self.request("GET", path, token: token, headers: headers)
            request.timeoutInterval = silenceTimeout
            return try await EventStreamRequest.open(request)
        }
    }
}

/// One streaming request: URLSession hands its bytes to a delegate as they arrive, which
/// parses them into events for an `AsyncThrowingStream`. A session per stream, since a
/// session's delegate is fixed; it is invalidated when the stream ends.
private final class EventStreamRequest: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: URLSession calls the delegate methods one at a time on its serial delegate
    // queue, and only they touch `parser`, `refusal` and `opened`; the continuations are Sendable.
    private var parser = ServerSentEventParser()
    private var refusal: (status: Int, retryAfter: TimeInterval?, body: Data)?
    private var opened: CheckedContinuation<Void, any Error>?
    private let events: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation
    let stream: AsyncThrowingStream<ServerSentEvent, any Error>

    private init(opened: CheckedContinuation<Void, any Error>) {
        self.opened = opened
        (stream, events) = AsyncThrowingStream.makeStream(of: ServerSentEvent.self, bufferingPolicy: .unbounded)
    }

    /// Sends `request` and waits for its answer's head.
    static func open(_ request: URLRequest) async throws(ListServiceError) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let box = Box()
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let delegate = EventStreamRequest(opened: continuation)
                    let configuration = URLSessionConfiguration.ephemeral
                    // The longest wait for the next byte, the head's first included (URLSession's
                    // request timeout is an idle timeout, here and on Apple's systems).
                    configuration.timeoutIntervalForRequest = request.timeoutInterval
                    let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
                    let task = session.dataTask(with: request)
                    box.set(delegate: delegate, task: task, session: session)
                    delegate.events.onTermination = { _ in
                        task.cancel()
                        session.invalidateAndCancel()
                    }
                    task.resume()
                }
            } onCancel: {
                box.cancel()
            }
        } catch let error as ListServiceError {
            throw error
        } catch {
            throw .unreachable(error)
        }
        guard let delegate = box.delegate else { throw .unreachable(CancellationError()) }
        return delegate.stream
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        if let http, http.statusCode == 200 {
            opened?.resume()
            opened = nil
        } else {
            let status = http?.statusCode ?? 0
            refusal = (status, http.flatMap(HTTPTransport.retryAfter(of:)), Data())
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if refusal != nil {
            refusal?.body.append(data)
            return
        }
        for event in parser.feed(data) { events.yield(event) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let refusal {
            let problem = ListServiceError(status: refusal.status, body: refusal.body, retryAfter: refusal.retryAfter)
            opened?.resume(throwing: problem)
            events.finish(throwing: problem)
        } else if let error {
            opened?.resume(throwing: ListServiceError.unreachable(error))
            events.finish(throwing: ListServiceError.unreachable(error))
        } else {
            opened?.resume(throwing: ListServiceError.unreachable(URLError(.networkConnectionLost)))
            events.finish()
        }
        opened = nil
        session.finishTasksAndInvalidate()
    }

    /// What the cancellation handler needs: set once the request exists.
    private final class Box: @unchecked Sendable {
        // @unchecked: every access holds `lock`.
        private let lock = NSLock()
        private var task: URLSessionDataTask?
        private var session: URLSession?
        private var isCancelled = false
        private var storedDelegate: EventStreamRequest?
        var delegate: EventStreamRequest? { lock.withLock { storedDelegate } }

        func set(delegate: EventStreamRequest, task: URLSessionDataTask, session: URLSession) {
            let cancelled = lock.withLock {
                (self.storedDelegate, self.task, self.session) = (delegate, task, session)
                return isCancelled
            }
            if cancelled { task.cancel() }
        }

        func cancel() {
            let task = lock.withLock {
                isCancelled = true
                return self.task
            }
            task?.cancel()
        }
    }
}
