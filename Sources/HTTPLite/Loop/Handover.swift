import Basics

/// Moves a value that is not `Sendable` (a loop's backend) to the thread that will own it.
/// The creating thread keeps no reference after handing it over, and `take()` runs once on
/// the new thread, under a lock: the value is never used by two threads.
final class Handover<Value>: Sendable {
    // Invariant: `value` is touched only inside `slot.withLock`, and taken exactly once.
    private let slot: Locked<Value?>

    init(_ value: sending Value) { slot = Locked(value) }

    func take() -> Value {
        guard let value = slot.withLock({ $0.take() }) else { preconditionFailure("a handover is taken once") }
        return value
    }
}
