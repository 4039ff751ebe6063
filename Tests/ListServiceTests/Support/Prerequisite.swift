import Foundation
import Testing

/// What a test needs from the machine beyond the package (PostgreSQL, nginx, `shared/` data,
/// `prlimit`). Locally a test without it is skipped, the reason shown; in CI (`CI` set) it runs
/// and fails, so a suite that silently stops running cannot pass CI.
enum Prerequisite {
    /// Whether this is a CI run (`CI` set to anything but empty, `0` or `false`).
    static let isCI: Bool = {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? ""
        return !["", "0", "false"].contains(value)
    }()

    /// A trait that skips the test or suite where `what` is missing, outside CI.
    static func needs(_ isAvailable: Bool, _ what: String) -> ConditionTrait {
        .enabled(if: isAvailable || isCI, "\(what) is missing (scripts/setup.sh installs it)")
    }

    /// Throws, failing the test, where `what` is missing: in CI the trait lets such a test run.
    static func require(_ isAvailable: Bool, _ what: String) throws {
        guard isAvailable else { throw Missing(what: what) }
    }

    struct Missing: Error, CustomStringConvertible {
        let what: String
        var description: String { "\(what) is missing: in CI a test fails without its prerequisite (scripts/setup.sh installs it)" }
    }
}
