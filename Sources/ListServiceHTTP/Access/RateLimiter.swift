import Basics
import Dispatch
import HTTPLite
import ListService
import Synchronization

/// How fast one caller may send requests of one kind: a token bucket that holds `burst`
/// requests and refills at `perSecond`.
package struct RatePolicy: Sendable, Equatable {
    package let perSecond: Double
    package let burst: Int

    package init(perSecond: Double, burst: Int) {
        self.perSecond = perSecond
        self.burst = max(1, burst)
    }

    /// The seconds an empty bucket takes to fill: the policy's window.
    var window: Int { max(1, Int((Double(burst) / perSecond).rounded(.up))) }
}

/// Requests per caller (an identity, else an API key, else a client address), reads and
/// writes each in their own token buckets; a caller over their limit gets 429 with
/// `Retry-After`, `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers).
/// `/health` is never limited. A caller's bucket that has filled up again is the same as none,
/// so idle callers' buckets are dropped and memory stays bounded whatever the number of callers.
package final class RateLimiter: Sendable {
    package let reads: RatePolicy?
    package let writes: RatePolicy?
    private let shards: [Locked<[BucketKey: Bucket]>]
    /// Buckets a shard holds before it drops the full ones (then, if still over, the oldest half).
    private let shardCapacity: Int
    /// 429s per bucket kind, for `/metrics`.
    let refusedReads = Atomic<Int>(0)
    let refusedWrites = Atomic<Int>(0)

    /// Whose bucket, of which kind: a caller's identity, else their address (no string is
    /// built per request to name it).
    private struct BucketKey: Hashable {
        let isWrite: Bool
        let identity: Identity?
        let address: String?
    }

    private struct Bucket {
        var tokens: Double
        /// When `tokens` was last brought up to date, in nanoseconds of the monotonic clock.
        var updated: UInt64
    }

    package init(reads: RatePolicy?, writes: RatePolicy?, capacity: Int = 100_000) {
        self.reads = reads
        self.writes = writes
        shards = (0..<16).map { _ in Locked([:]) }
        shardCapacity = max(1, capacity / 16)
    }

    /// Nil when `request` by `caller` may go ahead (a token is taken), else the 429 to answer.
    /// `isWrite`: whether it counts as a write (its route may change data); by default, an
    /// unsafe method.
    func refusal(
        of request: Request, by caller: Caller, isWrite: Bool? = nil, now: UInt64 = DispatchTime.now().uptimeNanoseconds
    ) -> HTTPError? {
        guard !request.path.hasPrefix("/health") else { return nil }
        let isWrite = isWrite ?? !request.method.isSafe
        guard let policy = isWrite ? writes : reads else { return nil }
        let identity = caller.identity
        let key = BucketKey(isWrite: isWrite, identity: identity, address: identity == nil ? request.remoteAddress : nil)
        let shard = shards[Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))]
        let (allowed, remaining, wait) = shard.withLock { buckets -> (Bool, Int, Double) in
            var bucket = buckets[key] ?? Bucket(tokens: Double(policy.burst), updated: now)
            let elapsed = Double(now &- bucket.updated) / 1e9
            bucket.tokens = min(Double(policy.burst), bucket.tokens + elapsed * policy.perSecond)
            bucket.updated = now
            let allowed = bucket.tokens >= 1
            if allowed { bucket.tokens -= 1 }
            if buckets[key] == nil && buckets.count >= shardCapacity { drop(from: &buckets, policy: policy, now: now) }
            buckets[key] = bucket
            return (allowed, Int(bucket.tokens), max(0, 1 - bucket.tokens) / policy.perSecond)
        }
        guard !allowed else { return nil }
        if isWrite { refusedWrites.add(1, ordering: .relaxed) } else { refusedReads.add(1, ordering: .relaxed) }
        let name = isWrite ? "writes" : "reads"
        let retryAfter = max(1, Int(wait.rounded(.up)))
        return HTTPError(
            .tooManyRequests, code: "rate-limited",
            detail: "Too many \(name) from this caller: at most \(policy.burst) at once and \(Self.rate(policy.perSecond)) a second. "
                + "Try again in \(retryAfter) s.",
            headers: [
                "Retry-After": "\(retryAfter)", "RateLimit-Policy": "\"\(name)\";q=\(policy.burst);w=\(policy.window)",
                "RateLimit": "\"\(name)\";r=\(remaining);t=\(retryAfter)",
            ])
    }

    /// How many callers' buckets are held now.
    var bucketCount: Int { shards.reduce(0) { $0 + $1.withLock { $0.count } } }

    /// Takes out the buckets that have filled up again (their callers idle); if that frees
    /// too little, the half updated longest ago.
    private func drop(from buckets: inout [BucketKey: Bucket], policy: RatePolicy, now: UInt64) {
        let full = Double(policy.burst) / policy.perSecond * 1e9
        buckets = buckets.filter { Double(now &- $0.value.updated) < full }
        guard buckets.count >= shardCapacity else { return }
        let oldest = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(buckets.count / 2)
        for entry in oldest { buckets[entry.key] = nil }
    }

    private static func rate(_ perSecond: Double) -> String {
        perSecond == perSecond.rounded() ? String(Int(perSecond)) : String(perSecond)
    }

    /// The 429s' families on `/metrics`.
    var metricFamilies: [MetricFamily] {
        [
            MetricFamily(
                "listservice_rate_limited_total", .counter, "Requests refused 429 over a caller's rate limit, by kind.", label: "kind",
                [("reads", refusedReads.load(ordering: .relaxed)), ("writes", refusedWrites.load(ordering: .relaxed))])
        ]
    }
}
