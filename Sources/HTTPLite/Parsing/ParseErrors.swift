/// The problems the parser reports, each with the status RFC 9112 and the issue call for.
extension HTTPError {
    static func malformed(_ detail: String) -> HTTPError {
        HTTPError(.badRequest, code: "malformed-request", detail: detail)
    }
    static let requestLineTooLong = HTTPError(
        .uriTooLong, code: "request-line-too-long", detail: "The request line exceeds the server's limit.")
    static let headersTooLarge = HTTPError(
        .requestHeaderFieldsTooLarge, code: "headers-too-large",
        detail: "The header section exceeds the server's size limit.")
    static let tooManyHeaders = HTTPError(
        .requestHeaderFieldsTooLarge, code: "too-many-headers",
        detail: "The request has more header fields than the server accepts.")
    static let bodyTooLarge = HTTPError(
        .contentTooLarge, code: "body-too-large", detail: "The request body exceeds the server's limit.")
    static let unsupportedVersion = HTTPError(
        .httpVersionNotSupported, code: "version-not-supported", detail: "Only HTTP/1.0 and HTTP/1.1 are served.")
    static func unknownMethod(_ method: String) -> HTTPError {
        HTTPError(.notImplemented, code: "method-not-implemented", detail: "The method '\(method)' is not implemented.")
    }
    static let unsupportedTransferCoding = HTTPError(
        .notImplemented, code: "transfer-coding-not-implemented",
        detail: "Only the chunked transfer coding is implemented.")
    static let unsupportedExpectation = HTTPError(
        .expectationFailed, code: "expectation-failed", detail: "Only 'Expect: 100-continue' is supported.")
}
