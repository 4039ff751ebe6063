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

    /// The format `format=` names (or `raw=1`, which names CSV), else the one `accept` weighs
    /// highest of `text/csv` and `application/x-ndjson` (CSV on a tie, or without `Accept`); an
    /// `Accept` that takes neither is `notAcceptable`. Read as every parameter is
    /// (`ParameterReader`): each once, a bad value named with what it accepts.
    package init(parameters: [(name: String, value: String)], accept: String?) throws(ListServiceError) {
        let reader = try ParameterReader(parameters.filter { Self.parameters.contains($0.name) }, allowed: Self.parameters)
        let isRaw = try reader.choice("raw", default: RawValues.no) == .yes
        switch try reader.choice("format") as FileKind? {
        case .csv?: self = .csv(raw: isRaw)
        case .ndjson?: self = .ndjson
        case nil where isRaw: self = .csv(raw: true)
        case nil: self = try Self.negotiated(accept ?? "")
        }
        if self == .ndjson && isRaw {
            throw .conflictingParameters("raw", "format", "raw=1 is a CSV variant; NDJSON rows are the list's rows.")
        }
    }

    /// The file `accept` weighs highest.
    private static func negotiated(_ accept: String) throws(ListServiceError) -> ExportFormat {
        let accepted = AcceptedMediaTypes(accept)
        guard !accepted.isEmpty else { return .csv(raw: false) }
        let (csv, ndjson) = (ExportFormat.csv(raw: false), ExportFormat.ndjson)
        let (csvQuality, ndjsonQuality) = (accepted.quality(of: csv.mediaType), accepted.quality(of: ndjson.mediaType))
        guard max(csvQuality, ndjsonQuality) > 0 else {
            throw .notAcceptable(offered: [csv.mediaType, ndjson.mediaType], choice: "format")
        }
        return ndjsonQuality > csvQuality ? ndjson : csv
    }

    /// The file's media type, without parameters.
    var mediaType: String {
        switch self {
        case .csv: "text/csv"
        case .ndjson: "application/x-ndjson"
        }
    }

    /// The media type of the file, with its parameters.
    package var contentType: String {
        switch self {
        case .csv: mediaType + "; charset=utf-8; header=present"
        case .ndjson: mediaType
        }
    }

    var fileExtension: String {
        switch self {
        case .csv: "csv"
        case .ndjson: "ndjson"
        }
    }
}
