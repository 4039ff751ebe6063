import Basics

/// A request method that HTTPLite recognises (RFC 9110 §9 plus PATCH and QUERY).
///
/// A syntactically valid method outside this set is answered 501 by the server.
public enum HTTPMethod: String, Sendable, CaseIterable, Hashable {
    case get = "GET"
    case head = "HEAD"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case options = "OPTIONS"
    case trace = "TRACE"
    case connect = "CONNECT"
    case query = "QUERY"

    /// Parses a method token from raw bytes without allocating.
    init?(bytes: UnsafeBufferPointer<UInt8>) {
        // Lengths first, then the bytes in place: a walk along each name's UTF-8 view cost more than the line's other checks.
        for method in HTTPMethod.allCases where method.rawValue.utf8.count == bytes.count {
            guard withUTF8Bytes(of: method.rawValue, { $0.elementsEqual(bytes) }) else { continue }
            self = method
            return
        }
        return nil
    }

    /// Whether the method is safe (RFC 9110 §9.2.1): it asks to change nothing on the server.
    public var isSafe: Bool {
        switch self {
        case .get, .head, .options, .trace, .query: true
        case .post, .put, .patch, .delete, .connect: false
        }
    }
}
