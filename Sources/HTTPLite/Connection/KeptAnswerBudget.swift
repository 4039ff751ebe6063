import Synchronization

/// The bytes all the answers a server's connections keep for repeats (`KeptAnswer`) may hold
/// together: a kept answer can hold a page the caches have let go, so thousands of connections
/// repeating once each must not hold thousands of pages. Past it, an answer is not kept.
final class KeptAnswerBudget: Sendable {
    /// `ServerConfiguration.keptAnswerBytes` unless told otherwise.
    static let defaultLimit = 16 * 1024 * 1024

    let limit: Int
    private let used = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    /// Takes `bytes` from the budget; false (nothing taken) when they do not fit.
    func take(_ bytes: Int) -> Bool {
        let total = used.add(bytes, ordering: .relaxed).newValue
        guard total > limit else { return true }
        used.subtract(bytes, ordering: .relaxed)
        return false
    }

    /// Gives back what a kept answer took.
    func give(_ bytes: Int) { used.subtract(bytes, ordering: .relaxed) }

    /// The bytes taken now.
    var bytesTaken: Int { used.load(ordering: .relaxed) }
}
