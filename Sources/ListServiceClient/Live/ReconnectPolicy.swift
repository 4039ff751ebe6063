/// How long a dropped stream waits before it is opened again: the stream's own `retry:`
/// (else `initialDelay`), doubled per failure up to `maximumDelay`, each wait spread by
/// ±50% so that clients a restart dropped together do not come back together. A 503's
/// `Retry-After` is waited out first. A stream silent for `silenceTimeout` (the service sends
/// a heartbeat every 15 s by default) is taken for dead and opened again.
public struct ReconnectPolicy: Sendable {
    public var initialDelay: Double
    public var maximumDelay: Double
    public var silenceTimeout: Double

    public init(initialDelay: Double = 1, maximumDelay: Double = 30, silenceTimeout: Double = 45) {
        (self.initialDelay, self.maximumDelay, self.silenceTimeout) = (initialDelay, maximumDelay, silenceTimeout)
    }

    /// The wait before attempt `failures + 1`, in seconds.
    func delay(failures: Int, serverRetry: Double?, retryAfter: Double?) -> Double {
        let base = min(maximumDelay, (serverRetry ?? initialDelay) * Double(1 << min(failures, 10)))
        return (retryAfter ?? 0) + base * Double.random(in: 0.5...1.5)
    }
}
