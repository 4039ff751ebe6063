import HTTPLite
import ListService
import Synchronization

/// Who may reach the service and change it: the `Host` names it answers to, the browser
/// origins it trusts, the keys and tokens that say who asks. Built from the server's options.
package struct AccessPolicy: Sendable {
    package var hosts: AllowedHosts
    package var cors: CORSPolicy
    package var keys: APIKeys
    package var credentials: Credentials
    /// Requests per caller; nil: no limit.
    package var rates: RateLimiter?

    package init(hosts: AllowedHosts, cors: CORSPolicy, keys: APIKeys, credentials: Credentials = .none, rates: RateLimiter? = nil) {
        self.hosts = hosts
        self.cors = cors
        self.keys = keys
        self.credentials = credentials
        self.rates = rates
    }

    /// No checks beyond the routes' own: any host, no CORS, writes without keys, no tokens.
    package static let open = AccessPolicy(hosts: .any, cors: .off, keys: .open)

    /// Whether `origin` is the service's own: the scheme and the request's `Host`, the port
    /// left out when it is the scheme's default.
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let authority = host?.lowercased() else { return false }
        let serialized = origin.lowercased()
        for (scheme, defaultPort) in [("http://", ":80"), ("https://", ":443")] where serialized.hasPrefix(scheme) {
            let originAuthority = serialized.dropFirst(scheme.count)
            let withoutDefaultPort = authority.hasSuffix(defaultPort) ? String(authority.dropLast(defaultPort.count)) : authority
            return originAuthority == authority || originAuthority == withoutDefaultPort
        }
        return false
    }
}

/// Requests refused before routing, for `/metrics`.
package final class AccessMetrics: Sendable {
    /// Requests without a credential they need, or with one that does not verify: 401.
    let refusedAuthentications = Atomic<Int>(0)
    /// Unsafe methods and preflights from browser origins not allowed: 403.
    let refusedOrigins = Atomic<Int>(0)
    /// Requests naming a `Host` the service does not answer to: 421.
    let refusedHosts = Atomic<Int>(0)
    /// The rate limits' counters, when there are limits.
    let rates: RateLimiter?

    package init(rates: RateLimiter? = nil) { self.rates = rates }

    /// The refusals' families on `/metrics`.
    var metricFamilies: [MetricFamily] {
        [
            MetricFamily(
                "listservice_refused_authentications_total", .counter,
                "Requests refused 401 for a missing or wrong API key or bearer token.",
                refusedAuthentications.load(ordering: .relaxed)),
            MetricFamily(
                "listservice_refused_origins_total", .counter, "Writes and preflights refused 403 from browser origins not allowed.",
                refusedOrigins.load(ordering: .relaxed)),
            MetricFamily(
                "listservice_refused_hosts_total", .counter, "Requests refused 421 for a Host the service does not answer to.",
                refusedHosts.load(ordering: .relaxed)),
        ] + (rates?.metricFamilies ?? [])
    }
}
