#if FUZZING
    @testable import HTTPLite

    /// The request parser fed arbitrary bytes: the first byte picks a fragment size. Invariants:
    /// the events (100 Continue prompts aside) do not depend on how the bytes were split, and a request the parser accepts
    /// re-encodes to bytes that parse back to the same request.
    enum HTTPRequestFuzzing {
        static func run(_ input: [UInt8]) {
            guard let first = input.first else { return }
            let bytes = Array(input.dropFirst())
            var limits = HTTPLimits()
            limits.maxBodyBytes = 64 * 1024
            let whole = feed(bytes, fragmentSize: bytes.count, limits: limits)
            let split = feed(bytes, fragmentSize: Int(first % 16) + 1, limits: limits)
            // A 100 Continue prompt is only owed while the body has not arrived, so it may differ.
            let (wholeOutcomes, splitOutcomes) = (whole.outcomes.filter { $0 != "continue" }, split.outcomes.filter { $0 != "continue" })
            fuzzCheck(wholeOutcomes == splitOutcomes, "fragmenting changed the outcome: \(wholeOutcomes) vs \(splitOutcomes)")
            for request in whole.requests {
                let again = feed(encode(request), fragmentSize: .max, limits: limits)
                fuzzCheck(again.requests.count == 1, "a re-encoded request did not parse: \(again.outcomes)")
                guard let copy = again.requests.first else { return }
                fuzzCheck(copy.method == request.method && copy.path == request.path, "method or path changed")
                fuzzCheck(copy.query.pairs == request.query.pairs, "query changed: \(request.query.pairs) vs \(copy.query.pairs)")
                fuzzCheck(copy.body == request.body, "body changed")
                fuzzCheck(copy.headers["Host"] == request.headers["Host"], "Host changed")
            }
        }

        /// What feeding produced: a comparable outcome per event, and the requests.
        private static func feed(_ bytes: [UInt8], fragmentSize: Int, limits: HTTPLimits) -> (outcomes: [String], requests: [Request]) {
            var parser = RequestParser(limits: limits)
            var buffer = InboundBuffer()
            var outcomes: [String] = [], requests: [Request] = []
            var offset = 0
            let step = max(1, fragmentSize)
            repeat {
                let end = offset + min(step, bytes.count - offset)
                bytes[offset..<end].withUnsafeBytes { buffer.append($0) }
                offset = end
                events: while true {
                    switch parser.next(&buffer) {
                    case .needMoreData: break events
                    case .continueExpected: outcomes.append("continue")
                    case .request(let request):
                        requests.append(request)
                        outcomes.append("request \(request.method.rawValue) \(request.path) \(request.body.count)")
                    case .refused(_, let response, _):  // only with a head screen, which this parser has not
                        outcomes.append("refused \(response.status.code)")
                        return (outcomes, requests)
                    case .failed(let error):
                        outcomes.append("failed \(error.status.code)")
                        return (outcomes, requests)
                    }
                }
                buffer.compact()
            } while offset < bytes.count
            return (outcomes, requests)
        }

        /// The request as origin-form HTTP/1.1 with a Content-Length body.
        private static func encode(_ request: Request) -> [UInt8] {
            var target = percentEncoded(request.path, keeping: "/")
            if !request.query.pairs.isEmpty {
                target +=
                    "?"
                    + request.query.pairs.map { percentEncoded($0.name, keeping: "") + "=" + percentEncoded($0.value, keeping: "") }
                    .joined(separator: "&")
            }
            var head = "\(request.method.rawValue) \(target) \(request.version == .http1_0 ? "HTTP/1.0" : "HTTP/1.1")\r\n"
            if let host = request.headers["Host"] { head += "Host: \(host)\r\n" }
            if !request.body.isEmpty { head += "Content-Length: \(request.body.count)\r\n" }
            return Array((head + "\r\n").utf8) + request.body
        }

        /// `text` with every byte but unreserved ones (RFC 3986 §2.3) and `extra` percent-encoded.
        private static func percentEncoded(_ text: String, keeping extra: String) -> String {
            let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8).union(extra.utf8)
            let hex = Array("0123456789ABCDEF".utf8)
            var encoded: [UInt8] = []
            for byte in text.utf8 {
                if unreserved.contains(byte) {
                    encoded.append(byte)
                } else {
                    encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                }
            }
            return String(decoding: encoded, as: UTF8.self)
        }
    }
#endif
