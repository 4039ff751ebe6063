extension ConnectionStateMachine {
    /// Limits and timeouts, in milliseconds.
    struct Configuration {
        var limits = HTTPLimits()
        var headScreen: HeadScreen?
        /// Proxies whose forwarding headers name the client (`Request.remoteAddress`).
        var trustedProxies = TrustedProxies.none
        var idleTimeout: Int64 = 60_000
        var headerReadTimeout: Int64 = 10_000
        var bodyReadTimeout: Int64 = 60_000
        var minBodyBytesPerSecond = 4096
        var minBodyRateGrace: Int64 = 5_000
        /// How long a lingering close waits for the client to close its side.
        var lingerTimeout: Int64 = 2_000
        /// Output beyond which the connection stops reading until the client catches up.
        var outputHighWater = 256 * 1024
        /// Output a streaming client may fall behind by before it is dropped.
        var streamBacklogLimit = 4 * 1024 * 1024
    }
}
