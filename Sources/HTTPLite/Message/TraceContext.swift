import Synchronization

/// A request's place in a distributed trace (W3C Trace Context): the trace it belongs to,
/// taken from a valid `traceparent` or begun here; the caller's span; this server's own span
/// for the request; the sampling flags; and `tracestate` as received, passed on unchanged.
public struct TraceContext: Sendable, Equatable {
    /// 32 lowercase hex digits.
    public let traceID: String
    /// The caller's span (16 hex digits); nil when the trace began here.
    public let parentID: String?
    /// This server's span for the request (16 hex digits).
    public let spanID: String
    /// The trace flags (2 hex digits; `01`: sampled).
    public let flags: String
    /// The caller's `tracestate`, kept only with a valid `traceparent`.
    public let state: String?

    /// The context of a request with `headers`: its `traceparent` when it is one (version 00,
    /// or a later version read as 00 would be), else a new trace, unsampled.
    public init(headers: HTTPHeaders) {
        let spanID = Self.hex(Self.nextRandom(), digits: 16)
        self.spanID = spanID
        let parents = headers.values(for: "traceparent")
        if parents.count == 1, let parent = Self.parse(parents[0]) {
            (traceID, parentID, flags) = (parent.traceID, parent.parentID, parent.flags)
            let states = headers.values(for: "tracestate")
            let state = states.joined(separator: ",")
            self.state = states.isEmpty || state.utf8.count > 512 ? nil : state
        } else {
            traceID = Self.hex(Self.nextRandom(), digits: 16) + Self.hex(Self.nextRandom(), digits: 16)
            (parentID, flags, state) = (nil, "00", nil)
        }
    }

    /// `traceparent` naming this server's span: what the answer reports (`traceresponse`) and
    /// what a call made for the request would carry.
    public var traceparent: String { "00-\(traceID)-\(spanID)-\(flags)" }

    /// A `traceparent` value's trace id, parent id and flags; nil when it is not valid.
    static func parse(_ value: String) -> (traceID: String, parentID: String, flags: String)? {
        let parts = value.trimmingSpaces.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].count == 2, isHex(parts[0]), parts[0] != "ff" else { return nil }
        // Version 00 is exactly four fields; a later version may add fields after them.
        if parts[0] == "00", parts.count != 4 { return nil }
        let (traceID, parentID, flags) = (parts[1], parts[2], parts[3])
        guard traceID.count == 32, isHex(traceID), traceID.contains(where: { $0 != "0" }),
            parentID.count == 16, isHex(parentID), parentID.contains(where: { $0 != "0" }),
            flags.count == 2, isHex(flags)
        else { return nil }
        return (String(traceID), String(parentID), String(flags))
    }

    /// Lowercase hex digits only (the standard refuses uppercase).
    private static func isHex(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let digitsTable = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: 0, count: digits)
        var rest = value
        for index in stride(from: digits - 1, through: 0, by: -1) {
            bytes[index] = digitsTable[Int(rest & 0xF)]
            rest >>= 4
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Ids need to be unique, not secret: a counter from a random start, mixed (SplitMix64),
    /// is one atomic add per id and never zero in practice.
    private static let counter = Atomic<UInt64>(UInt64.random(in: 1...UInt64.max))

    private static func nextRandom() -> UInt64 {
        var z = counter.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        let mixed = z ^ (z >> 31)
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
