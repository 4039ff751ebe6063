import Glibc

/// The stages one request's answer went through and how long each took, for the
/// `Server-Timing` header: the HTTP binding binds a recorder to the thread answering the
/// request (`ServerTimings.bind(_:_:)`), and the code that runs a stage (the session, the
/// filter, the sort, formatting, gzip) times itself into it. Outside a timed request nothing
/// is recorded and a stage costs one thread-local read.
public final class ServerTimings: @unchecked Sendable {
    // @unchecked: a recorder belongs to one request, whose handler runs on one thread from
    // start to end (stages are timed synchronously inside it); nothing else holds it, so
    // `entries` is never touched by two threads at once.

    /// Where a thread keeps the recorder bound to it: a thread-local slot rather than a task
    /// local, because a handler runs synchronously on its loop's thread, and a task-local's
    /// binding and each of a request's dozen reads cost ten times a slot's. Work sent to
    /// another thread sees no recorder (as a task local bound here would not reach it either).
    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-local slot left for ServerTimings")
        return key
    }()

    /// The recorder of the request being answered on this thread, if any.
    public static var current: ServerTimings? {
        guard let bound = pthread_getspecific(slot) else { return nil }
        return Unmanaged<ServerTimings>.fromOpaque(bound).takeUnretainedValue()
    }

    /// Runs `body` with `timings` as this thread's recorder, then restores the one before.
    /// `body` runs synchronously; `timings` outlives it (the caller holds it), so the slot
    /// holds it unretained.
    public static func bind<T>(_ timings: ServerTimings, _ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(slot)
        pthread_setspecific(slot, Unmanaged.passUnretained(timings).toOpaque())
        defer { pthread_setspecific(slot, previous) }
        return try withExtendedLifetime(timings) { try body() }
    }

    private struct Entry {
        let name: String
        var nanoseconds: Int64
        var description: String?
    }

    // Unchecked exclusivity, for the reason above: one thread, and no access overlaps another
    // (none calls out while it holds one); a request reads and writes these a dozen times.
    @exclusivity(unchecked) private var entries: [Entry] = []
    /// The kind of route that answered (`list`, `row`, `write`, `live`), set by its handler:
    /// which latency histogram the request counts in.
    @exclusivity(unchecked) public var route: String?

    public init() { entries.reserveCapacity(8) }  // a list's miss records seven

    /// Adds `nanoseconds` to stage `name` (a stage that ran twice counts both runs).
    public func record(_ name: String, nanoseconds: Int64) {
        if let index = entries.firstIndex(where: { $0.name == name }) {
            entries[index].nanoseconds += nanoseconds
        } else {
            entries.append(Entry(name: name, nanoseconds: nanoseconds, description: nil))
        }
    }

    /// Names a metric without a duration: `cache;desc="hit"`.
    public func note(_ name: String, description: String) {
        entries.append(Entry(name: name, nanoseconds: -1, description: description))
    }

    /// Whether any stage or note was recorded.
    public var isEmpty: Bool { entries.isEmpty }

    /// The header's value: `session;dur=0.012, filter;dur=0.301, cache;desc="hit"`
    /// (milliseconds to the microsecond), written straight into the string's storage: a warm
    /// answer writes one per request.
    public var headerValue: String {
        // Per entry at most: ", ", `;dur=` with 20 + 4 characters, `;desc="` and `"`.
        let capacity = entries.reduce(0) { $0 + $1.name.utf8.count + ($1.description?.utf8.count ?? 0) + 40 }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = ByteWriter(buffer)
            for entry in entries {
                if writer.count > 0 { writer.write(", ") }
                writer.write(contentsOf: entry.name)
                if entry.nanoseconds >= 0 {
                    writer.write(";dur=")
                    let microseconds = Int((entry.nanoseconds + 500) / 1000)
                    writer.writeDecimal(microseconds / 1000)
                    let fraction = microseconds % 1000
                    writer.write(byte: UInt8(ascii: "."))
                    writer.write(byte: UInt8(ascii: "0") + UInt8(fraction / 100))
                    writer.write(byte: UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
                    writer.write(byte: UInt8(ascii: "0") + UInt8(fraction % 10))
                }
                if let description = entry.description {
                    writer.write(";desc=\"")
                    writer.write(contentsOf: description)
                    writer.write(byte: UInt8(ascii: "\""))
                }
            }
            return writer.count
        }
    }

    /// Runs `body`, timed as stage `name` when a request is being timed.
    public static func measure<T, E: Error>(_ name: String, _ body: () throws(E) -> T) throws(E) -> T {
        guard let timings = current else { return try body() }
        let started = MonotonicClock.nanoseconds()
        defer { timings.record(name, nanoseconds: MonotonicClock.nanoseconds() - started) }
        return try body()
    }
}
