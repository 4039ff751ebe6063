import Glibc

/// A value behind a pthread mutex, with the API of `Synchronization.Mutex`.
///
/// Why not `Mutex`: on Linux its futex-based lock is invisible to ThreadSanitizer, which then
/// reports every access it protects as a race (checked with a four-thread counter: `Mutex`
/// gives false reports, `pthread_mutex_t` none). A pthread mutex keeps TSan runs meaningful at
/// the same uncontended cost.
///
/// Keep a function value in a final class, not directly as `Value`: an inout access to a
/// closure through the generic `Value` re-wraps it in a reabstraction thunk each time, so a
/// closure read on every event grew a chain of thunks (40% of CPU in live lists, issue 11).
public final class Locked<Value>: @unchecked Sendable {
    // Invariant: `value` is only read or written between pthread_mutex_lock and unlock of
    // `mutex`, in `withLock`; that exclusion is what makes the unchecked Sendable sound. Both
    // are internal only so that `withLock` can be inlined and specialized where it is called
    // (a generic call across the module boundary cost a warm hit four unspecialized calls).
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    // Unchecked exclusivity: the mutex already makes every access exclusive; the run-time
    // check would only add its cost (a thread-local access set per use).
    @exclusivity(unchecked) @usableFromInline var value: Value

    public init(_ value: sending Value) {
        self.value = value
        // Adaptive: a thread that finds the lock taken spins briefly before it sleeps. The
        // sections are short (a session looked up, a page read, a histogram counted), and two
        // event loops meeting at one used to put one of them to sleep and wake it again.
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
