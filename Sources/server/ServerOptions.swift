import Foundation
import HTTPLite
import ListService
import ListServiceAuth
import ListServiceHTTP
import ListServicePostgres

/// Command-line options of `server`, parsed from arguments and the environment.
struct ServerOptions {
    var configuration = ServerConfiguration.listServiceDefaults
    var showsHelp = false
    /// Directory with the collections' data files; nil serves the embedded default data.
    var dataDirectory: String?
    /// Where snapshots and journals go (`--state`); nil: `--data`, else the default directory.
    var stateDirectory: String?
    /// Keep changes in memory only.
    var isInMemory = false
    /// libpq connection string of the PostgreSQL database replicas share (`--database`,
    /// `DATABASE_URL`); nil keeps the local journal.
    var databaseURL: String?
    /// Journal bytes after which a collection is compacted into its snapshot (`--compact-after`).
    var compactAfterBytes = StorageConfiguration.defaultCompactAfterBytes
    /// Changes the database's log keeps behind its head (`--retain-changes`).
    var retainedChanges = PostgresStorage.Configuration.defaultRetainedChanges
    var maxSessions = 10_000
    var sessionTimeToLive: Duration = .seconds(1800)
    var sharedPages = 2048
    /// What cached pages and results may hold in all, in bytes: half for the pages sessions
    /// keep, half for the caches shared between sessions.
    var cacheBytes = 256 * 1024 * 1024
    /// Answers to keyed writes kept for replay (`--idempotency-keys`).
    var idempotencyKeys = AnswerLedger.defaultCapacity
    /// The largest body of `/quakes/import`; other requests are held to `limits.maxBodyBytes`.
    var maxImportBytes = ServiceRoutes.defaultMaxImportBytes
    /// Live lists' heartbeat and caps; their events reach each event loop once.
    var live: LiveConfiguration = {
        var live = LiveConfiguration()
        live.broadcast = ServiceRoutes.liveBroadcast
        return live
    }()
    /// Browser origins allowed (`--cors-origin`), `*` for any.
    var corsOrigins: [String] = []
    /// Names answered in `Host` (`--allowed-host`); none: the loopback names on a loopback address.
    var allowedHosts: [String] = []
    /// Keys writes need (`--api-keys FILE` or `LISTSERVICE_API_KEYS`); none: see `APIKeys`.
    var apiKeys: [String] = []
    var requiresKeyForReads = false
    var allowsAnonymousWrites = false
    /// The keys bearer tokens are verified with (`--jwt-keys FILE` or `LISTSERVICE_JWT_KEYS`),
    /// read at start; nil: no tokens beyond the demo identities'.
    var jwtKeys: KeySet?
    /// The file of `--jwt-keys`, read again on SIGHUP.
    var jwtKeysPath: String?
    /// What tokens' claims must say (`--jwt-issuer`, `--jwt-audience`), how far clocks may
    /// disagree (`--jwt-leeway`), and the claim of the role (`--jwt-role-claim`).
    var tokenClaims = TokenVerifier.Configuration()
    /// Offer demo identities (`/auth/demo`): nil decides by the address and the identity
    /// sources (`offersDemoIdentities`).
    var demoIdentities: Bool?
    /// Requests per caller (`--rate-limit`, `--rate-burst`) and writes per caller
    /// (`--write-rate-limit`, `--write-rate-burst`); nil: no limit.
    var readRate: RatePolicy? = RatePolicy(perSecond: 100, burst: 200)
    var writeRate: RatePolicy? = RatePolicy(perSecond: 20, burst: 40)

    /// The data files `--data` reads, as the help says them: `orders.json, tasks.json and
    /// quakes.geojson from DIR, and users.json when present`.
    static var dataFilesPhrase: String {
        func list(_ names: [String]) -> String {
            names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        }
        let files = CollectionRegistry.dataFiles
        let optional = files.filter(\.isOptional).map(\.name)
        return list(files.filter { !$0.isOptional }.map(\.name)) + " from DIR"
            + (optional.isEmpty ? "" : ", and \(list(optional)) when present")
    }

    static let usage = """
        Usage: server [options]

        Serves ListService over HTTP/1.1.

        Options:
          --data DIR              load \(dataFilesPhrase)
                                  (default: embedded data: 10,000 orders, 2,000 tasks, 5,000 quakes, 300 people)
          --state DIR             keep snapshots and the journal of changes in DIR (default: the --data
                                  directory, else $XDG_STATE_HOME/listservice or ~/.local/state/listservice)
          --in-memory             keep changes in memory only; nothing is written
          --compact-after N       fold a collection's journal into its snapshot once the journal holds
                                  N bytes (default 67108864)
          --database URL          keep everything in PostgreSQL, shared with other replicas (a libpq
                                  connection string: postgresql://user@host:5432/db; or env DATABASE_URL).
                                  An empty database is seeded from --data (or the embedded data) once
          --retain-changes N      changes the database's log keeps for replicas that fell behind; one
                                  further behind loads everything again (default 1000000)
          --max-sessions N        live sessions kept; the least recently used is evicted (default 10000)
          --session-ttl SECONDS   a session idle this long expires (default 1800)
          --shared-pages N        computed pages shared between sessions; 0 turns sharing off (default 2048)
          --cache-bytes N         bytes all cached pages and results may hold, half for sessions' own
                                  pages, half for the shared caches; least recently used go first
                                  (default 268435456)
          --idempotency-keys N    answers to writes sent with an Idempotency-Key kept for their retries
                                  (24 hours at most; past N the oldest go first; default 100000)
          --host ADDRESS          address to listen on (default 127.0.0.1; IPv4, IPv6 or localhost)
          --port N                port to listen on, 0 for any free port (default 8080, or env PORT)
          --threads N             event-loop threads (default: one per core the process may
                                  run on, as taskset or a cpuset allows)
          --event-backend NAME    what the loops wait with: epoll (Linux's default) or poll (portable)
          --max-connections N     open connections before new ones get 503 (default 10000)
          --max-body-bytes N      largest request body accepted, /quakes/import aside (default 262144)
          --max-import-bytes N    largest body of /quakes/import, a USGS feed (default 67108864)
          --idle-timeout SECONDS  close keep-alive connections idle this long (default 60)
          --header-timeout SECONDS  close clients that take longer to send a request head (default 10)
          --body-timeout SECONDS  close clients that take longer to send a request body (default 60)
          --min-body-rate BYTES   close clients whose body arrives slower than this per second,
                                  judged after 5 seconds (default 4096; 0 turns it off)
          --grace-period SECONDS  how long shutdown waits for in-flight requests (default 10)
          --live-heartbeat SECONDS  send a comment on a live stream after this long without events (default 15)
          --max-live-streams N    live streams (/…/live) held at once; more get 503 (default 10000; each
                                  is also a connection under --max-connections)
          --max-lists-per-stream N  lists one multiplexed stream (GET /live) carries at most; more get 409
                                  (default 32)
          --cors-origin ORIGIN    let pages from ORIGIN (https://app.example, or * for any) call the service
                                  from a browser; repeatable. Listed origins also get the sid cookie
          --allowed-host NAME     answer only requests whose Host is NAME (any port); repeatable (default:
                                  localhost, 127.0.0.1 and [::1] on a loopback address, any name otherwise)
          --trusted-proxies CIDR,…  reverse proxies (addresses or blocks: 127.0.0.1, 10.0.0.0/8, ::1) whose
                                  Forwarded / X-Forwarded-For name the client: its address, the rightmost
                                  hop that is not itself a trusted proxy, is the one rate limits, the
                                  access log and live-stream caps use; repeatable (default: none, every
                                  client is its connection's peer)
          --api-keys FILE         writes need Authorization: Bearer <key>, a key from FILE (one per line,
                                  # comments); or the keys in env LISTSERVICE_API_KEYS
          --require-key-for-reads reads need a key too (/health stays open)
          --jwt-keys FILE         verify Authorization: Bearer <JWT> tokens (HS256, RS256, ES256) with the
                                  keys of FILE, a JWKS document (read again on SIGHUP); or the document in
                                  env LISTSERVICE_JWT_KEYS. Then orders and tasks need a token to read,
                                  every write a token or an API key
          --jwt-issuer ISS        tokens must carry this iss
          --jwt-audience AUD      tokens must carry this aud
          --jwt-leeway SECONDS    clock skew allowed for exp, nbf and iat (default 30)
          --jwt-role-claim NAME   the claim holding the role: customer, staff or admin (default role)
          --rate-limit N/s        requests a caller (a token's identity, an API key, else an address) may
                                  send a second on average, live streams opened included (default 100/s;
                                  off: none); /health is never limited. Over it: 429 with Retry-After
          --rate-burst N          requests a caller may send at once (default 200)
          --write-rate-limit N/s  the same for writes, counted apart (default 20/s; off: none)
          --write-rate-burst N    writes a caller may send at once (default 40)
          --demo-identities       offer GET/POST /auth/demo: a few identities to sign in as, with tokens
                                  signed by a key made at start-up, to anyone who reaches the server
                                  (default: on a loopback address with no --jwt-keys or API keys, and
                                  then 404 to requests a proxy passed on; refused on any other address)
          --no-demo-identities    do not offer them
          --allow-anonymous-writes  with no keys, accept writes from anyone (by default a loopback
                                  server accepts them only from requests no proxy passed on, any other
                                  refuses them 401)
          --no-access-log         do not log one line per request on stderr
          -h, --help              show this help
        """

    /// A bad option: the message is printed on one line and the process exits with status 2.
    struct Failure: Error {
        let message: String
    }

    static func parse(_ arguments: [String], environment: [String: String]) throws(Failure) -> ServerOptions {
        var options = ServerOptions()
        if let port = environment["PORT"] {
            options.configuration.port = try parsePort(port, source: "PORT")
        }
        if let keys = environment["LISTSERVICE_API_KEYS"] { options.apiKeys = APIKeys.parse(keys) }
        if let document = environment["LISTSERVICE_JWT_KEYS"], !document.isEmpty {
            options.jwtKeys = try parseJWKS(Array(document.utf8), source: "LISTSERVICE_JWT_KEYS")
        }
        if let url = environment["DATABASE_URL"], !url.isEmpty { options.databaseURL = url }
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            func value() throws(Failure) -> String {
                guard let next = remaining.popFirst() else { throw Failure(message: "\(argument) needs a value") }
                return next
            }
            switch argument {
            case "-h", "--help": options.showsHelp = true
            case "--host": options.configuration.host = try value()
            case "--port": options.configuration.port = try parsePort(try value(), source: argument)
            case "--threads": options.configuration.loopCount = try parseInt(try value(), argument, in: 1...256)
            case "--event-backend":
                let name = try value()
                guard let backend = EventBackendKind(rawValue: name) else {
                    let names = EventBackendKind.allCases.map(\.rawValue).joined(separator: ", ")
                    throw Failure(message: "--event-backend must be one of \(names), not '\(name)'")
                }
                options.configuration.eventBackend = backend
            case "--max-connections":
                options.configuration.maxConnections = try parseInt(try value(), argument, in: 1...1_000_000)
            case "--max-body-bytes":
                options.configuration.limits.maxBodyBytes = try parseInt(try value(), argument, in: 0...1 << 30)
            case "--max-import-bytes": options.maxImportBytes = try parseInt(try value(), argument, in: 0...1 << 30)
            case "--idle-timeout": options.configuration.idleTimeout = try parseSeconds(try value(), argument)
            case "--header-timeout": options.configuration.headerReadTimeout = try parseSeconds(try value(), argument)
            case "--body-timeout": options.configuration.bodyReadTimeout = try parseSeconds(try value(), argument)
            case "--min-body-rate":
                options.configuration.minBodyBytesPerSecond = try parseInt(try value(), argument, in: 0...1 << 30)
            case "--grace-period": options.configuration.shutdownGracePeriod = try parseSeconds(try value(), argument)
            case "--live-heartbeat": options.live.heartbeat = try parseSeconds(try value(), argument)
            case "--max-live-streams": options.live.maxStreams = try parseInt(try value(), argument, in: 1...1_000_000)
            case "--max-lists-per-stream": options.live.maxListsPerStream = try parseInt(try value(), argument, in: 1...1_000)
            case "--cors-origin":
                let origin = try value()
                if let problem = CORSPolicy.validate(origin) { throw Failure(message: "--cors-origin \(problem)") }
                options.corsOrigins.append(origin)
            case "--allowed-host": options.allowedHosts.append(try value())
            case "--trusted-proxies":
                let text = try value()
                do throws(InvalidAddressRange) {
                    let proxies = try TrustedProxies(parsing: text)
                    options.configuration.trustedProxies = TrustedProxies(options.configuration.trustedProxies.ranges + proxies.ranges)
                } catch {
                    throw Failure(message: "--trusted-proxies: \(error)")
                }
            case "--api-keys": options.apiKeys = try readKeys(try value())
            case "--require-key-for-reads": options.requiresKeyForReads = true
            case "--jwt-keys":
                let path = try value()
                options.jwtKeys = try readJWKS(path)
                options.jwtKeysPath = path
            case "--jwt-issuer": options.tokenClaims.issuer = try value()
            case "--jwt-audience": options.tokenClaims.audience = try value()
            case "--jwt-leeway": options.tokenClaims.leeway = TimeInterval(try parseInt(try value(), argument, in: 0...86_400))
            case "--jwt-role-claim": options.tokenClaims.roleClaim = try value()
            case "--rate-limit": options.readRate = try parseRate(try value(), argument, burst: options.readRate?.burst ?? 200)
            case "--rate-burst": options.readRate = try withBurst(options.readRate, try parseInt(try value(), argument, in: 1...1_000_000))
            case "--write-rate-limit": options.writeRate = try parseRate(try value(), argument, burst: options.writeRate?.burst ?? 40)
            case "--write-rate-burst":
                options.writeRate = try withBurst(options.writeRate, try parseInt(try value(), argument, in: 1...1_000_000))
            case "--demo-identities": options.demoIdentities = true
            case "--no-demo-identities": options.demoIdentities = false
            case "--allow-anonymous-writes": options.allowsAnonymousWrites = true
            case "--no-access-log": options.configuration.isAccessLogEnabled = false
            case "--data": options.dataDirectory = try value()
            case "--state": options.stateDirectory = try value()
            case "--in-memory": options.isInMemory = true
            case "--database": options.databaseURL = try value()
            case "--retain-changes": options.retainedChanges = try parseInt(try value(), argument, in: 1...1_000_000_000)
            case "--max-sessions": options.maxSessions = try parseInt(try value(), argument, in: 1...10_000_000)
            case "--session-ttl": options.sessionTimeToLive = try parseSeconds(try value(), argument)
            case "--shared-pages": options.sharedPages = try parseInt(try value(), argument, in: 0...1_000_000)
            case "--compact-after": options.compactAfterBytes = try parseInt(try value(), argument, in: 1 << 16...1 << 40)
            case "--cache-bytes": options.cacheBytes = try parseInt(try value(), argument, in: 1 << 20...1 << 40)
            case "--idempotency-keys": options.idempotencyKeys = try parseInt(try value(), argument, in: 1...100_000_000)
            default: throw Failure(message: "unknown option '\(argument)' (see --help)")
            }
        }
        if options.isInMemory && options.stateDirectory != nil {
            throw Failure(message: "--in-memory and --state exclude each other")
        }
        if options.databaseURL != nil && (options.isInMemory || options.stateDirectory != nil) {
            throw Failure(message: "--database keeps everything in the database: it excludes --in-memory and --state")
        }
        if options.demoIdentities == true && !AllowedHosts.isLoopback(options.configuration.host) {
            throw Failure(message: "--demo-identities signs in anyone as anyone: it is for a loopback address only")
        }
        if options.requiresKeyForReads && options.apiKeys.isEmpty {
            throw Failure(message: "--require-key-for-reads needs keys (--api-keys FILE or LISTSERVICE_API_KEYS)")
        }
        return options
    }

    /// Who may reach and change the service, from the options and the address bound; `tokens`
    /// verifies bearer tokens (made once by the caller, since its keys are replaced on SIGHUP).
    func accessPolicy(tokens: TokenAuthority? = nil) -> AccessPolicy {
        let isLoopback = AllowedHosts.isLoopback(configuration.host)
        return AccessPolicy(
            hosts: AllowedHosts(names: allowedHosts, boundTo: configuration.host), cors: CORSPolicy(origins: corsOrigins),
            keys: APIKeys(
                keys: apiKeys, requireForReads: requiresKeyForReads, boundToLoopback: isLoopback,
                allowsAnonymousWrites: allowsAnonymousWrites),
            credentials: Credentials(tokens: tokens, requiresIdentity: jwtKeys != nil),
            rates: readRate == nil && writeRate == nil ? nil : RateLimiter(reads: readRate, writes: writeRate))
    }

    /// `N/s` (or `N`): that many a second; `off`: nil. The burst stays as given before.
    private static func parseRate(_ text: String, _ option: String, burst: Int) throws(Failure) -> RatePolicy? {
        if text == "off" { return nil }
        let number = text.hasSuffix("/s") ? String(text.dropLast(2)) : text
        guard let perSecond = Double(number), perSecond > 0, perSecond <= 1_000_000 else {
            throw Failure(message: "\(option) must be N/s (a number of requests a second, up to 1000000) or off, not '\(text)'")
        }
        return RatePolicy(perSecond: perSecond, burst: burst)
    }

    /// `policy` with a burst of `burst`; a burst for a limit that is off is an error.
    private static func withBurst(_ policy: RatePolicy?, _ burst: Int) throws(Failure) -> RatePolicy {
        guard let policy else { throw Failure(message: "a burst needs its limit on (it was given as off)") }
        return RatePolicy(perSecond: policy.perSecond, burst: burst)
    }

    /// Whether `/auth/demo` is offered: as asked, else on a loopback address with no identity
    /// source (no token keys, no API keys), and then only to requests no proxy passed on.
    var offersDemoIdentities: Bool { demoIdentities ?? (AllowedHosts.isLoopback(configuration.host) && !hasIdentitySource) }

    /// Whether callers are identified by something other than demo identities: token keys or API keys.
    var hasIdentitySource: Bool { jwtKeys != nil || !apiKeys.isEmpty }

    /// The token verifier of `jwtKeys` and the demo identities' key (`extraKeys`); nil without any.
    func makeTokenAuthority(extraKeys: [VerificationKey] = []) -> TokenAuthority? {
        let keys = KeySet(keys: jwtKeys?.keys ?? [], signedHere: extraKeys)
        guard !keys.keys.isEmpty else { return nil }
        return TokenAuthority(verifier: TokenVerifier(keys: keys, configuration: tokenClaims))
    }

    /// The key set in the JWKS file at `path`; one that cannot be read or used is an error
    /// naming the file and what is wrong.
    static func readJWKS(_ path: String) throws(Failure) -> KeySet {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(message: "--jwt-keys: cannot read '\(path)'") }
        return try parseJWKS(Array(data), source: "--jwt-keys '\(path)'")
    }

    private static func parseJWKS(_ bytes: [UInt8], source: String) throws(Failure) -> KeySet {
        do throws(KeyError) {
            return try KeySet(jwks: bytes)
        } catch {
            throw Failure(message: "\(source): \(error)")
        }
    }

    /// The keys in `path`; a file that cannot be read or holds none is an error.
    private static func readKeys(_ path: String) throws(Failure) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(message: "--api-keys: cannot read '\(path)'")
        }
        let keys = APIKeys.parse(String(decoding: data, as: UTF8.self))
        guard !keys.isEmpty else { throw Failure(message: "--api-keys: '\(path)' holds no keys") }
        return keys
    }

    /// Where changes are kept: nil in memory; else `--state`, `--data`, or the default directory.
    func resolvedStateDirectory(environment: [String: String]) -> String? {
        guard !isInMemory else { return nil }
        if let directory = stateDirectory ?? dataDirectory { return directory }
        if let base = environment["XDG_STATE_HOME"], !base.isEmpty { return base + "/listservice" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/listservice" }
        return "listservice-state"
    }

    private static func parsePort(_ text: String, source: String) throws(Failure) -> UInt16 {
        guard let port = UInt16(text) else { throw Failure(message: "\(source) must be a port number 0-65535, not '\(text)'") }
        return port
    }

    private static func parseInt(_ text: String, _ option: String, in range: ClosedRange<Int>) throws(Failure) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw Failure(message: "\(option) must be a whole number in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return value
    }

    private static func parseSeconds(_ text: String, _ option: String) throws(Failure) -> Duration {
        guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
            throw Failure(message: "\(option) must be a number of seconds above 0, not '\(text)'")
        }
        return .milliseconds(Int64(seconds * 1000))
    }
}

extension ServerConfiguration {
    /// HTTPLite's defaults with ListService's body limit for ordinary requests.
    static var listServiceDefaults: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.limits.maxBodyBytes = ServiceRoutes.defaultMaxBodyBytes
        return configuration
    }
}
