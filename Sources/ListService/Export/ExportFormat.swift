/// The file an export writes: CSV (display-ready for a spreadsheet in the client's locale, or
/// `raw` values for a machine) or NDJSON (the list's rows, one per line).
package enum ExportFormat: Sendable, Equatable {
    case csv(raw: Bool)
    case ndjson

    /// The parameters an export takes beside its list's.
    static let parameters = ["format", "raw"]

    /// The format `format=` names, else the first of `text/csv` and `application/x-ndjson`
    /// that `accept` lists, else CSV; `raw=1` (or `0`) picks raw CSV values.
    package init(parameters: [(name: String, value: String)], accept: String?) throws(ListServiceError) {
        let format = parameters.last { $0.name == "format" }?.value
        let raw = parameters.last { $0.name == "raw" }?.value
        let isRaw: Bool
        switch raw {
        case nil, "0": isRaw = false
        case "1": isRaw = true
        case let other?: throw .invalidParameter("raw", "raw is 1 (ISO dates, plain amounts) or 0, not '\(other)'.", allowed: ["0", "1"])
        }
        switch format {
        case "csv": self = .csv(raw: isRaw)
        case "ndjson": self = .ndjson
        case let other?:
            throw .invalidParameter("format", "An export is format=csv or format=ndjson, not '\(other)'.", allowed: ["csv", "ndjson"])
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
