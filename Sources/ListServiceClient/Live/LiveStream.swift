import Foundation

/// A list on the stream, as the stream sees it: a key, a live path, and where its events go.
@MainActor
protocol LiveStreamMember: AnyObject {
    var key: String { get }
    var path: String { get }
    /// One of its events (`snapshot`, `reset`, `delta`, `closed`).
    func receive(_ event: ServerSentEvent)
    /// The stream dropped, came back with this list still on it, or refused it.
    func streamChanged(to state: LiveState)
}

/// The client's one multiplexed stream (`GET /live`): every live list of a
/// `ListServiceClient` is put on it under its own key, so an app holds one connection
/// whatever it shows. It opens when a first list is watched and closes after the last;
/// after a drop it comes back with `Last-Event-ID`, and each list resumes where it was.
@MainActor
final class LiveStream {
    private let transport: HTTPTransport
    private let policy: ReconnectPolicy
    private var members: [String: any LiveStreamMember] = [:]
    /// The stream id each list was last put on.
    private var putOn: [String: String] = [:]
    /// The current stream's id, from its `hello`; nil while none is open.
    private var streamID: String?
    /// The id of the stream to resume, and the last event taken from it.
    private var resumeID: String?
    private var lastEventID: String?
    private var serverRetry: Double?
    private var failures = 0
    private var runner: Task<Void, Never>?
    private var lastKey = 0
    /// The lists whose `PUT` is on its way, by stream and key: one at a time per list, since
    /// two could reach the service in either order and it keeps the last it handles.
    private var putting: Set<String> = []
    /// Lists to put again (their path as it is then) once the `PUT` on its way is answered.
    private var putAgain: Set<String> = []

    nonisolated init(transport: HTTPTransport, policy: ReconnectPolicy) {
        self.transport = transport
        self.policy = policy
    }

    /// A key no other list of this stream has.
    func makeKey() -> String {
        lastKey += 1
        return "l\(lastKey)"
    }

    /// Puts `member` on the stream (again, with its current path, when it is already on it).
    func watch(_ member: any LiveStreamMember) {
        members[member.key] = member
        putOn[member.key] = nil
        if runner == nil {
            start()
        } else if let streamID {
            Task { await put(member, on: streamID) }
        }
    }

    /// Takes the list with `key` off the stream; the stream closes with its last list.
    func unwatch(_ key: String) {
        guard members.removeValue(forKey: key) != nil else { return }
        if let id = putOn.removeValue(forKey: key), id == streamID {
            let transport = transport
            Task { try? await transport.sendForData("DELETE", "/live/\(id)/lists/\(key)") }
        }
        if members.isEmpty {
            runner?.cancel()
            runner = nil
            (streamID, resumeID, lastEventID) = (nil, nil, nil)
        }
    }

    private func start() {
        runner = Task { await run() }
    }

    private func run() async {
        while !Task.isCancelled {
            var retryAfter: Double?
            do {
                let events = try await transport.events("/live", lastEventID: lastEventID, silenceTimeout: policy.silenceTimeout)
                for try await event in events {
                    guard !Task.isCancelled else { return }
                    handle(event)
                }
            } catch let error as ListServiceError where !error.isTransient && error.code != "undecodable" {
                guard !Task.isCancelled else { return }
                // Refused for good (no access): every list says why; watching again starts over.
                for member in members.values { member.streamChanged(to: .failed(error)) }
                runner = nil
                streamID = nil
                return
            } catch let error as ListServiceError {
                retryAfter = error.retryAfter
            } catch {}
            guard !Task.isCancelled else { return }
            streamID = nil
            for member in members.values { member.streamChanged(to: .reconnecting) }
            let delay = policy.delay(failures: failures, serverRetry: serverRetry, retryAfter: retryAfter)
            failures += 1
            try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
        }
    }

    private func handle(_ event: ServerSentEvent) {
        if let retry = event.retry { serverRetry = Double(retry) / 1000 }
        guard !event.data.isEmpty else { return }
        if let id = event.id { lastEventID = id }
        if event.name == "hello" {
            hello(event)
            return
        }
        guard let key = LiveEventTag.key(of: event.data), let member = members[key] else { return }
        if event.name == "closed" {
            // Closed by the service, not by us (we forget a list before we delete it): put it again.
            if let streamID { Task { await put(member, on: streamID) } }
            return
        }
        member.receive(event)
    }

    /// A stream opened: the same one resumed (its lists go on where they were), or a new one
    /// (every list put on it).
    private func hello(_ event: ServerSentEvent) {
        struct Hello: Decodable { var stream: String }
        guard let id = try? JSONDecoder().decode(Hello.self, from: Data(event.data.utf8)).stream else { return }
        failures = 0
        let resumed = id == resumeID
        streamID = id
        resumeID = id
        if !resumed { lastEventID = nil }
        for member in members.values {
            if resumed && putOn[member.key] == id {
                member.streamChanged(to: .live)
            } else {
                Task { await put(member, on: id) }
            }
        }
    }

    /// Puts `member`'s path on stream `id`: its snapshot follows on the stream. Asked again
    /// while the list's `PUT` is on its way, it puts the list once more after that one's answer;
    /// a list no longer watched by then is taken off the stream.
    func put(_ member: any LiveStreamMember, on id: String) async {
        let key = member.key
        let slot = "\(id)/\(key)"
        guard putting.insert(slot).inserted else {
            putAgain.insert(slot)
            return
        }
        defer {
            putting.remove(slot)
            putAgain.remove(slot)
        }
        var isOnStream = false
        repeat {
            putAgain.remove(slot)
            isOnStream = await putOnce(member, on: id)
        } while putAgain.contains(slot) && streamID == id && members[key] === member
        // Unwatched while its PUT was on its way (`unwatch` had nothing to delete then).
        if isOnStream, streamID == id, members[key] !== member {
            _ = try? await transport.sendForData("DELETE", "/live/\(id)/lists/\(key)")
        }
    }

    /// One `PUT` of `member`'s path; whether the service took it. A refusal is the list's (the
    /// stream goes on); a stream the service no longer knows is opened anew.
    private func putOnce(_ member: any LiveStreamMember, on id: String) async -> Bool {
        struct Put: Encodable { var path: String }
        let (key, path) = (member.key, member.path)
        // Whether the answer still matters: the same stream, the list still watched, its path unchanged.
        let isCurrent = { self.streamID == id && self.members[key] === member && member.path == path }
        do {
            try await transport.sendForData("PUT", "/live/\(id)/lists/\(key)", body: Put(path: path))
            if isCurrent() { putOn[key] = id }
            return true
        } catch {
            guard isCurrent() else { return false }
            if error.status == 404 {
                reopen()
            } else if !error.isTransient {
                member.streamChanged(to: .failed(error))
            } else {
                try? await Task.sleep(nanoseconds: UInt64(policy.delay(failures: 0, serverRetry: nil, retryAfter: error.retryAfter) * 1e9))
                if isCurrent() { return await putOnce(member, on: id) }
            }
            return false
        }
    }

    /// Drops the stream and opens a new one (not resumed): every list is put on it again.
    private func reopen() {
        runner?.cancel()
        (streamID, resumeID, lastEventID) = (nil, nil, nil)
        putOn = [:]
        start()
    }
}
