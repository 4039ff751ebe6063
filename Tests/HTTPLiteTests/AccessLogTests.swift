import Foundation
import Testing

@testable import HTTPLite

/// An access log line keeps its fields apart whatever the decoded path holds.
@Suite struct AccessLogTests {
    @Test(arguments: [
        ("/orders/o-000001", "/orders/o-000001"),
        ("/orders/o x", "/orders/o%20x"),
        ("/orders/o\nlevel=error event=forged", "/orders/o%0Alevel=error%20event=forged"),
        ("/orders/o\u{1B}[31m\t\u{7F}", "/orders/o%1B[31m%09%7F"),
        ("/users/Zoë\u{202E}", "/users/Zo%C3%AB%E2%80%AE"),
        ("/orders/100%", "/orders/100%25"),
    ])
    func aPath_isOneFieldAsAURLCarriesIt(path: String, logged: String) throws {
        var log = AccessLog(isEnabled: true)
        log.record(method: "GET", path: path, status: 404, bodyBytes: 12, nanoseconds: 1_500_000, trace: nil)
        let line = String(decoding: log.buffer, as: UTF8.self)
        #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
        let fields = line.dropLast().split(separator: " ", omittingEmptySubsequences: false)
        #expect(fields.count == 6)
        #expect(fields.dropFirst().map(String.init) == ["GET", logged, "404", "12", "1.500ms"])
        #expect(logged.removingPercentEncoding == path)
    }

    @Test func aDisabledLog_recordsNothing() {
        var log = AccessLog(isEnabled: false)
        log.record(method: "GET", path: "/", status: 200, bodyBytes: 1, nanoseconds: 1, trace: nil)
        #expect(log.buffer.isEmpty)
    }
}
