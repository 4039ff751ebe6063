/// A route path such as `/orders/:id`: literal segments and named parameters.
struct PathPattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]
    /// How many segments are parameters: fewer is more specific.
    let parameterCount: Int

    init(_ text: String) {
        segments = Self.split(text).map { $0.hasPrefix(":") ? .parameter(String($0.dropFirst())) : .literal(String($0)) }
        parameterCount = segments.filter { if case .parameter = $0 { true } else { false } }.count
    }

    /// The captured parameters when `pathSegments` matches, else nil.
    func match(_ pathSegments: [Substring]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, actual) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let literal):
                guard literal.utf8.elementsEqual(actual.utf8) else { return nil }
            case .parameter(let name):
                guard !actual.isEmpty else { return nil }
                parameters[name] = String(actual)
            }
        }
        return parameters
    }

    /// `/a/b/` and `/a/b` are different paths; the root is one empty segment.
    static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }
}
