#if FUZZING
    import Foundation
    @testable import HTTPLite
    @testable import ListService

    /// The fuzz targets by name. Each traps (`fuzzCheck`) when an invariant fails, which
    /// libFuzzer reports as a crash with the input that caused it.
    enum FuzzTargets {
        static let all: [String: @Sendable ([UInt8]) -> Void] = [
            "http": HTTPRequestFuzzing.run,
            "json": JSONFuzzing.run,
            "journal": JournalFuzzing.run,
            "criteria": CriteriaFuzzing.run,
        ]
    }

    /// Stops with a message naming the broken invariant.
    func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError("invariant broken: \(message())") }
    }
#endif
