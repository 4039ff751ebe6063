import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The file `ListServiceClient.export` writes: CSV for a spreadsheet in the query's locale
/// (its columns titled in that language), CSV of the stored values for a machine, or NDJSON
/// (the list's rows, one per line).
public enum ExportFile: Sendable {
    case csv, rawCSV, ndjson

    var parameters: [(name: String, value: String)] {
        switch self {
        case .csv: [("format", "csv")]
        case .rawCSV: [("format", "csv"), ("raw", "1")]
        case .ndjson: [("format", "ndjson")]
        }
    }
}

extension ListServiceClient {
    /// Every row of `query`'s list (its criteria and display; no paging, no grouping) as one
    /// file at `destination`, replacing what is there: the rows as they were when the request
    /// arrived, streamed to disk, never whole in memory. A list without pages (a map) has no export.
    public func export<Query: ListQuery>(_ query: Query, as file: ExportFile = .csv, to destination: URL)
        async throws(ListServiceError) -> URL
    {
        guard Query.isPaged else {
            throw ListServiceError(
                status: 0, code: "no-export", title: "No export", detail: "\(query.path) has no export; export its list instead.")
        }
        let parameters = query.parameters.filter { $0.name != "group" } + file.parameters
        try await transport.download(query.path + "/export" + encodedQuery(parameters), to: destination)
        return destination
    }
}

extension HTTPTransport {
    /// A GET whose 2xx body goes to a file at `destination` (replacing it); any other answer is its problem.
    func download(_ path: String, to destination: URL) async throws(ListServiceError) {
        try await withToken { (token) throws(ListServiceError) in
            let (file, response): (URL, URLResponse)
            do {
                (file, response) = try await session.download(for: request("GET", path, token: token, headers: ["Accept": "*/*"]))
            } catch {
                throw .unreachable(error)
            }
            defer { try? FileManager.default.removeItem(at: file) }
            _ = try Self.status(of: response) { (try? Data(contentsOf: file)) ?? Data() }
            do {
                if FileManager.default.fileExists(atPath: destination.path) { try FileManager.default.removeItem(at: destination) }
                try FileManager.default.moveItem(at: file, to: destination)
            } catch {
                throw ListServiceError(status: 0, code: "unwritable", title: "Unwritable file", detail: "\(destination.path): \(error)")
            }
        }
    }
}
