/// The file an export writes: CSV (display-ready for a spreadsheet in the client's locale, or
/// `raw` values for a machine) or NDJSON (the list's rows, one per line).
package enum ExportFormat: Sendable, Equatable {
    case csv(raw: Bool)
    case ndjson

    /// The parameters an export takes beside its list's.
    static let parameters = ["format", "raw"]

    /// The values of `format`.
    private enum FileKind: String, CaseIterable {
        case csv, ndjson
    }

    /// The values of `raw`.
    private enum RawValues: String, CaseIterable {
        case no = "0"
        case yes = "1"
    }

    /// The format `format=` names, else the first of `text/csv` and `application/x-ndjson`
    /// that `accept` lists, else CSV; `raw=1` (or `0`) picks raw CSV values. Read as every
    /// parameter is (`ParameterReader`): each once, a bad value named with what it accepts.
    package init(parameters: [(name: String, value: String)], accept: String?) throws(ListServiceError) {
        let reader = try ParameterReader(parameters.filter { Self.parameters.contains($0.name) }, allowed: Self.parameters)
        let isRaw = try reader.choice("raw", default: RawValues.no) == .yes
        switch try reader.choice("format") as FileKind? {
        case .csv?: self = .csv(raw: isRaw)
        case .ndjson?: self = .ndjson
        case nil:
            let accept = accept?.lowercased() ?? ""
            let prefersNDJSON: Bool
            switch (accept.range(of: "text/csv")?.lowerBound, accept.range(of: "application/x-ndjson")?.lowerBound) {
            case (let csv?, let ndjson?): prefersNDJSON = ndjson < csv
            case (nil, _?): prefersNDJSON = true
            default: prefersNDJSON = false
            }
            self = prefersNDJSON && !isRaw ? .ndjson : .csv(raw: isRaw)
        }
        if self == .ndjson && isRaw {
            throw .conflictingParameters("raw", "format", "raw=1 is a CSV variant; NDJSON rows are the list's rows.")
        }
    }

    /// The media type of the file.
    package var contentType: String {
        switch self {
        case .csv: "text/csv; charset=utf-8; header=present"
        case .ndjson: "application/x-ndjson"
        }
    }

    var fileExtension: String {
        switch self {
        case .csv: "csv"
        case .ndjson: "ndjson"
        }
    }
}
