import Foundation

/// Reads and validates query parameters, naming the parameter and what it accepts in every error.
package struct ParameterReader {
    /// The parameters as given: a request has a handful, which a scan finds sooner than a
    /// hash table is built.
    private let parameters: [(name: String, value: String)]

    /// Rejects parameters outside `allowed` and any given twice.
    package init(_ parameters: [(name: String, value: String)], allowed: [String]) throws(ListServiceError) {
        try self.init(parameters, accepts: allowed.contains, allowed: allowed)
    }

    /// Rejects parameters `accepts` refuses (naming `allowed`, asked only then) and any given twice.
    package init(
        _ parameters: [(name: String, value: String)], accepts: (String) -> Bool, allowed: @autoclosure () -> [String]
    ) throws(ListServiceError) {
        for (index, parameter) in parameters.enumerated() {
            guard accepts(parameter.name) else { throw .unknownParameter(parameter.name, allowed: allowed()) }
            guard !parameters[..<index].contains(where: { $0.name == parameter.name }) else {
                throw .invalidParameter(parameter.name, "The parameter '\(parameter.name)' may be given only once.")
            }
        }
        self.parameters = parameters
    }

    package func string(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

    /// `asc` or `desc`, or one of the collection's aliases for them.
    package func direction(_ name: String, aliases: [String: SortDirection], default defaultValue: SortDirection) throws(ListServiceError)
        -> SortDirection
    {
        guard let text = string(name) else { return defaultValue }
        if let direction = SortDirection(rawValue: text) ?? aliases[text] { return direction }
        let allowed = SortDirection.allCases.map(\.rawValue) + aliases.keys.sorted()
        throw .invalidParameter(name, "'\(text)' is not a valid \(name); use one of \(allowed.joined(separator: ", ")).", allowed: allowed)
    }

    /// One of a closed set of values (`filter=pending`), or the default when absent.
    package func choice<T: RawRepresentable & CaseIterable>(_ name: String, default defaultValue: T) throws(ListServiceError) -> T
    where T.RawValue == String {
        try choice(name) ?? defaultValue
    }

    /// One of a closed set of values (`group=day`), or nil when absent.
    package func choice<T: RawRepresentable & CaseIterable>(_ name: String) throws(ListServiceError) -> T? where T.RawValue == String {
        guard let text = string(name) else { return nil }
        guard let value = T(rawValue: text) else {
            let allowed = T.allCases.map(\.rawValue)
            throw .invalidParameter(
                name, "'\(text)' is not a valid \(name); use one of \(allowed.joined(separator: ", ")).", allowed: allowed)
        }
        return value
    }

    /// A whole number within `range`, or the default when absent.
    package func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int?) throws(ListServiceError) -> Int? {
        guard let text = string(name) else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw .invalidParameter(
                name, "'\(text)' is not a valid \(name); use a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }

    /// A search text: trimmed, at most 200 characters, no control characters.
    package func searchText(_ name: String) throws(ListServiceError) -> String {
        let text = Self.trimmingWhitespace(string(name) ?? "")
        // Code points, as JSON Schema's maxLength counts them.
        guard text.unicodeScalars.count <= 200 else {
            throw .invalidParameter(name, "The search text '\(name)' is longer than 200 characters.")
        }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidParameter(name, "The search text '\(name)' must not contain control characters.")
        }
        return text
    }

    /// `text` without the spaces and tabs around it (Unicode's space separators and the zero
    /// width space, as Foundation's `CharacterSet.whitespaces`); the same string when there are none, as for
    /// nearly every request, with nothing copied.
    static func trimmingWhitespace(_ text: String) -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t"
                || (scalar.value > 0x7F && (scalar.properties.generalCategory == .spaceSeparator || scalar.value == 0x200B))
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return text }
        return String(scalars[first...last])
    }

    /// The display context from `locale` (else `Accept-Language`) and `tz`.
    package func displayContext(acceptLanguage: String?) throws(ListServiceError) -> DisplayContext {
        // An explicit `locale` must name one; `Accept-Language`, which browsers fill in, falls back to en-US.
        if let explicit = string("locale"), LocaleNegotiation.supportedTag(explicit) == nil {
            throw .invalidParameter(
                "locale", "'\(explicit)' names no locale this service formats for; use a BCP 47 tag such as de-DE or en.")
        }
        let locale = LocaleNegotiation.negotiate(explicit: string("locale"), acceptLanguage: acceptLanguage)
        let zoneName = string("tz") ?? "UTC"
        guard DisplayContext.timeZone(named: zoneName) != nil else {
            throw .invalidParameter("tz", "'\(zoneName)' is not an IANA time zone name such as Europe/Berlin or UTC.")
        }
        return DisplayContext(localeTag: locale, timeZoneIdentifier: zoneName)
    }
}
