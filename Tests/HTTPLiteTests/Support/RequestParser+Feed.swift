@testable import HTTPLite

/// What feeding bytes to a parser produced, in a form tests can compare.
enum ParseOutcome: Equatable {
    case request(method: HTTPMethod, path: String, body: String)
    case continueExpected
    case refused(status: Int, keepsConnection: Bool)
    case failed(status: Int)
}

extension RequestParser {
    /// Feeds `text` in pieces of `fragmentSize` bytes (whole when nil), collecting every event
    /// until the parser needs more data or fails.
    static func feed(
        _ text: String, fragmentSize: Int? = nil, limits: HTTPLimits = HTTPLimits(), headScreen: HeadScreen? = nil
    ) -> [ParseOutcome] {
        feed(Array(text.utf8), fragmentSize: fragmentSize, limits: limits, headScreen: headScreen).outcomes
    }

    static func feed(
        _ bytes: [UInt8], fragmentSize: Int? = nil, limits: HTTPLimits = HTTPLimits(), headScreen: HeadScreen? = nil
    ) -> (outcomes: [ParseOutcome], requests: [Request]) {
        var parser = RequestParser(limits: limits, headScreen: headScreen)
        var buffer = InboundBuffer()
        var outcomes: [ParseOutcome] = []
        var requests: [Request] = []
        var offset = 0
        let step = fragmentSize ?? max(bytes.count, 1)
        repeat {
            let end = min(bytes.count, offset + step)
            bytes[offset..<end].withUnsafeBytes { buffer.append($0) }
            offset = end
            events: while true {
                switch parser.next(&buffer) {
                case .needMoreData: break events
                case .continueExpected: outcomes.append(.continueExpected)
                case .request(let request):
                    requests.append(request)
                    outcomes.append(
                        .request(method: request.method, path: request.path, body: String(decoding: request.body, as: UTF8.self)))
                case .refused(_, let response, let keepsConnection):
                    outcomes.append(.refused(status: response.status.code, keepsConnection: keepsConnection))
                    if !keepsConnection { return (outcomes, requests) }
                case .failed(let error):
                    outcomes.append(.failed(status: error.status.code))
                    return (outcomes, requests)
                }
            }
            buffer.compact()
        } while offset < bytes.count
        return (outcomes, requests)
    }
}
