import Basics
import Synchronization

/// A request's place in a distributed trace (W3C Trace Context): the trace it belongs to,
/// taken from a valid `traceparent` or begun here; the caller's span; this server's own span
/// for the request; the sampling flags; and `tracestate` as received, passed on unchanged.
/// Ids are kept as numbers and written out only when asked for (a warm answer writes one).
public struct TraceContext: Sendable, Equatable {
    private let traceHigh: UInt64
    private let traceLow: UInt64
    private let parent: UInt64?
    private let span: UInt64
    private let flagBits: UInt8
    /// The caller's `tracestate`, kept only with a valid `traceparent`.
    public let state: String?

    /// The context of a request with `headers`: its `traceparent` when it is one (version 00,
    /// or a later version read as 00 would be), else a new trace, unsampled.
    public init(headers: HTTPHeaders) {
        span = Self.nextRandom()
        // Most requests carry none: one lookup, and the list of them only when there is one.
        if let first = headers["traceparent"], headers.values(for: "traceparent").count == 1, let parent = Self.parse(first) {
            (traceHigh, traceLow, self.parent, flagBits) = (parent.traceHigh, parent.traceLow, parent.parent, parent.flags)
            let states = headers.values(for: "tracestate")
            let state = states.joined(separator: ",")
            self.state = states.isEmpty || state.utf8.count > 512 ? nil : state
        } else {
            (traceHigh, traceLow, parent, flagBits, state) = (Self.nextRandom(), Self.nextRandom(), nil, 0, nil)
        }
    }

    /// A new trace, unsampled, begun here: a request that carries no `traceparent`.
    init() {
        (span, traceHigh, traceLow, parent, flagBits, state) = (Self.nextRandom(), Self.nextRandom(), Self.nextRandom(), nil, 0, nil)
    }

    /// 32 lowercase hex digits.
    public var traceID: String {
        Self.write {
            Self.append(traceHigh, to: &$0); Self.append(traceLow, to: &$0)
        }
    }
    /// The caller's span (16 hex digits); nil when the trace began here.
    public var parentID: String? { parent.map { value in Self.write { Self.append(value, to: &$0) } } }
    /// Whether the caller is tracing the request (it sent a valid `traceparent`).
    public var isContinued: Bool { parent != nil }
    /// This server's span for the request (16 hex digits).
    public var spanID: String { Self.write { Self.append(span, to: &$0) } }
    /// The trace flags (2 hex digits; `01`: sampled).
    public var flags: String { Self.write { Self.append(UInt64(flagBits), digits: 2, to: &$0) } }

    /// `traceparent` naming this server's span: what the answer reports (`traceresponse`) and
    /// what a call made for the request would carry.
    public var traceparent: String {
        Self.write { bytes in
            bytes.append(contentsOf: [0x30, 0x30, 0x2D])  // "00-"
            Self.append(traceHigh, to: &bytes)
            Self.append(traceLow, to: &bytes)
            bytes.append(0x2D)
            Self.append(span, to: &bytes)
            bytes.append(0x2D)
            Self.append(UInt64(flagBits), digits: 2, to: &bytes)
        }
    }

    /// A `traceparent` value's trace id, parent id and flags; nil when it is not valid.
    static func parse(_ value: String) -> (traceHigh: UInt64, traceLow: UInt64, parent: UInt64, flags: UInt8)? {
        let parts = value.trimmingSpaces.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].utf8.count == 2, let version = number(parts[0]), version != 0xFF else { return nil }
        // Version 00 is exactly four fields; a later version may add fields after them.
        if version == 0, parts.count != 4 { return nil }
        let trace = parts[1].utf8
        guard trace.count == 32, parts[2].utf8.count == 16, parts[3].utf8.count == 2,
            let high = number(parts[1].prefix(16)), let low = number(parts[1].suffix(16)), high | low != 0,
            let parent = number(parts[2]), parent != 0, let flags = number(parts[3])
        else { return nil }
        return (high, low, parent, UInt8(flags))
    }

    /// Lowercase hex digits as a number (the standard refuses uppercase); nil for anything else.
    private static func number(_ text: Substring) -> UInt64? {
        var value: UInt64 = 0
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39: value = value << 4 | UInt64(byte - 0x30)
            case 0x61...0x66: value = value << 4 | UInt64(byte - 0x61 + 10)
            default: return nil
            }
        }
        return value
    }

    private static func write(_ body: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(55)
        body(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func append(_ value: UInt64, digits: Int = 16, to bytes: inout [UInt8]) {
        for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
            let digit = UInt8((value >> UInt64(shift)) & 0xF)
            bytes.append(digit < 10 ? 0x30 + digit : 0x61 + digit - 10)
        }
    }

    /// Ids need to be unique, not secret: SplitMix64 over a shared counter from a random
    /// start, one atomic add per id; never zero.
    private static let counter = Atomic<UInt64>(UInt64.random(in: 1...UInt64.max))

    private static func nextRandom() -> UInt64 {
        let mixed = SplitMix64.mix(counter.wrappingAdd(SplitMix64.increment, ordering: .relaxed).newValue)
        return mixed == 0 ? 1 : mixed
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        var text = self[...]
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
