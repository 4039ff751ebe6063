import Glibc

/// A readers-writer lock (pthread_rwlock): many concurrent readers, one writer.
final class ReadWriteLock: @unchecked Sendable {
    // Invariant: `lock` is allocated once, initialised in `init`, destroyed in `deinit`, and
    // only used through pthread_rwlock calls, which are themselves thread-safe.
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() { pthread_rwlock_init(lock, nil) }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func withReadLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    func withWriteLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
