import Basics
import Dispatch
import HTTPLite
import ListService

/// `GET /{name}/export`: the whole list a list request names, as CSV or NDJSON, streamed as
/// the client reads it (`ExportPump`), its rows as of the request however long that takes.
enum ExportRoutes {
    static func add(
        _ endpoint: CollectionEndpoint, service: CollectionService, credentials: Credentials, gate: ExportGate, to router: inout Router
    ) {
        router.get("/\(endpoint.name)/export") { request in
            let caller = try credentials.reader(of: request, isPublic: endpoint.isPublic)
            let format = try mappingErrors { () throws(ListServiceError) in
                try ExportFormat(parameters: request.query.pairs.map { ($0.name, $0.value) }, accept: request.headers["Accept"])
            }
            guard let permit = gate.enter() else {
                throw HTTPError(
                    .serviceUnavailable, code: "too-many-exports",
                    detail: "\(gate.limit) exports are running, the most at once; retry shortly.", headers: ["Retry-After": "5"])
            }
            let export = try mappingErrors { () throws(ListServiceError) in
                try endpoint.export(ListRequest(request, caller: caller), format)
            }
            var headers: HTTPHeaders = [
                "Content-Type": export.contentType,
                "Content-Disposition": "attachment; filename=\"\(export.filename)\"",
                "Cache-Control": "no-store",
                // The file's format, language and coding follow these request headers.
                "Vary": "Accept, Accept-Encoding, Accept-Language",
            ]
            let gzip = AcceptEncoding.acceptsGzip(request.headers)
            if gzip { headers.add(name: "Content-Encoding", value: "gzip") }
            let pump = ExportPump(export, gzip: gzip, permit: permit)
            return Response(headers: headers, body: .download { stream in pump.start(on: stream) }, choseCachingAndCoding: true)
        }
    }
}

/// Bounds the exports that run at once: each holds a snapshot of its list and, while the
/// client reads, a thread formatting rows.
final class ExportGate: Sendable {
    let limit: Int
    private let running = Locked(0)

    init(limit: Int) { self.limit = limit }

    /// A place for one more export, held until the permit is released; nil when all are taken.
    func enter() -> Permit? {
        running.withLock { running in
            guard running < limit else { return nil }
            running += 1
            return Permit(gate: self)
        }
    }

    fileprivate func leave() { running.withLock { $0 -= 1 } }

    /// One export's place; it is given back when the export ends or its client goes.
    final class Permit: Sendable {
        private let gate: ExportGate

        fileprivate init(gate: ExportGate) { self.gate = gate }

        deinit { gate.leave() }
    }
}

/// Moves an export to its client: formats a chunk, compresses it if asked, writes it, and
/// goes on while the client keeps up; past `highWater` unsent bytes it waits until the
/// socket has taken them, so memory holds a few chunks whatever the file's size, and a
/// client that stops reading holds nothing but its snapshot (its connection is closed after
/// the server's idle timeout, which ends the export).
final class ExportPump: Sendable {
    private let export: ListExport
    /// The body's gzip coder, if the client takes gzip; used by one chunk at a time.
    private let gzip: Locked<GzipStream?>
    private let permit: ExportGate.Permit

    /// Unsent bytes past which the pump waits for the client.
    static var highWater: Int { 256 * 1024 }
    private static let queue = DispatchQueue(label: "listservice.export", qos: .utility, attributes: .concurrent)

    init(_ export: ListExport, gzip: Bool, permit: ExportGate.Permit) {
        self.export = export
        self.gzip = Locked(gzip ? GzipStream() : nil)
        self.permit = permit
    }

    /// Starts writing (called on the connection's loop thread: the work moves off it).
    func start(on stream: ResponseStream) {
        Self.queue.async { self.pump(stream) }
    }

    private func pump(_ stream: ResponseStream) {
        while stream.isOpen {
            let step = export.next()
            let bytes: [UInt8]?
            switch step {
            case .bytes(let chunk): bytes = gzip.withLock { coder in coder.map { $0.compress(chunk) } ?? chunk }
            case .end: bytes = gzip.withLock { coder in coder.map { $0.finish() } ?? [] }
            case .overrun: bytes = nil
            }
            guard let bytes else { return stream.abort() }  // never ended as if it were whole
            if !bytes.isEmpty { stream.write(bytes) }
            if case .end = step { return stream.finish() }
            if stream.unsentBytes > Self.highWater {
                return stream.whenDrained { Self.queue.async { self.pump(stream) } }
            }
        }
    }
}
