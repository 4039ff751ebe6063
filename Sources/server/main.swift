import Basics
import Foundation
import HTTPLite
import ListService
import ListServiceAuth
import ListServiceHTTP
import ListServicePostgres

let options: ServerOptions
do {
    options = try ServerOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    StandardError.writeLine("server: \(error.message)")
    exit(2)
}
if options.showsHelp {
    print(ServerOptions.usage)
    exit(0)
}

// A file-size limit (ulimit -f) then fails a write with EFBIG, answered 503 like a full disk,
// instead of killing the process.
signal(SIGXFSZ, SIG_IGN)
FreedMemory.keepLargeBlocksApart()

let loadStarted = Date()
let environment = ProcessInfo.processInfo.environment
let storage = StorageConfiguration(
    dataDirectory: options.dataDirectory,
    stateDirectory: options.databaseURL == nil ? options.resolvedStateDirectory(environment: environment) : nil,
    anchor: CollectionService.defaultAnchor(), compactAfterBytes: options.compactAfterBytes)
let changeStorage: any ChangeStorage
if let databaseURL = options.databaseURL {
    var database = PostgresStorage.Configuration(connectionString: databaseURL) { () throws(StartupError) in
        try storage.initialStores(log: .standardError)
    }
    database.retainedChanges = options.retainedChanges
    changeStorage = PostgresStorage(database, log: .standardError)
} else {
    changeStorage = storage.makeStorage(log: .standardError, answerCapacity: options.idempotencyKeys)
}
let service: CollectionService
do {
    service = try CollectionService.open(
        storage: changeStorage,
        sessions: SessionStore(
            capacity: options.maxSessions, timeToLive: options.sessionTimeToLive, maxPageBytes: options.cacheBytes / 2),
        sharedPages: options.sharedPages, sharedCacheBytes: options.cacheBytes / 2, live: options.live,
        answerCapacity: options.idempotencyKeys)
} catch {
    StandardError.writeLine("server: cannot start: \(error)")
    exit(1)
}
let loadMilliseconds = Int(Date().timeIntervalSince(loadStarted) * 1000)
let stateName = options.databaseURL != nil ? "database" : storage.stateDirectory ?? "memory"
StandardError.writeLine(
    "level=info event=ready \(service.itemCounts.map { "\($0.name)=\($0.count)" }.joined(separator: " ")) "
        + "state=\(LogFmt.value(stateName)) duration_ms=\(loadMilliseconds)")

System.raiseOpenFileLimit()
let statistics = ServerStatisticsBox()
let demo = options.offersDemoIdentities ? DemoIdentities(isExplicit: options.demoIdentities == true) : nil
let demoKeys = demo.map { [$0.verificationKey] } ?? []
let tokens = options.makeTokenAuthority(extraKeys: demoKeys)
let policy = options.accessPolicy(tokens: tokens)
// Token keys rotate without a restart: SIGHUP reads the file again.
let keyRotation = options.jwtKeysPath.flatMap { path in tokens.map { handleKeyRotation(of: $0, from: path, keeping: demoKeys) } }
let handler = ServiceRoutes.makeHandler(
    service: service, policy: policy, demo: demo, server: { statistics.snapshot }, maxBodyBytes: options.configuration.limits.maxBodyBytes,
    maxImportBytes: options.maxImportBytes)
var configuration = options.configuration
// Requests with a body are judged on their heads: refusals (421, 403, 401, 404, 405, 415) and a
// body past its route's limit (413) are answered before a byte of the body is read.
configuration.limits.maxBodyBytes = max(configuration.limits.maxBodyBytes, options.maxImportBytes)
configuration.headScreen = handler.screen
if let demo {
    StandardError.writeLine(
        demo.isExplicit
            ? "level=warning event=demo-identities path=/auth/demo reason=\"--demo-identities: anyone reaching the service can sign in as "
                + "anyone, admin included\""
            : "level=info event=demo-identities path=/auth/demo reason=\"a loopback address with no identity source: anyone on this "
                + "machine may sign in as anyone; requests through a proxy get 404\"")
}
if options.allowsAnonymousWrites && !options.hasIdentitySource {
    StandardError.writeLine(
        "level=warning event=anonymous-writes reason=\"--allow-anonymous-writes: anyone reaching the service can change data "
            + "without a credential\"")
}
if policy.keys.writes == .refused {
    StandardError.writeLine(
        "level=warning event=writes-refused address=\(configuration.host) reason=\"no API keys on a non-loopback address: every write "
            + "gets 401; give --api-keys FILE (or LISTSERVICE_API_KEYS), or --allow-anonymous-writes\"")
}
if options.corsOrigins.contains("*") && (policy.keys.writes == .open || policy.keys.writes == .openOnLoopback) {
    StandardError.writeLine(
        "level=warning event=cors-any-origin-writes reason=\"--cors-origin '*' with no API keys: a page on any website can change "
            + "data through a browser that reaches this server; give --api-keys FILE (or LISTSERVICE_API_KEYS)\"")
}
let server: HTTPServer
do {
    // Live lists are refreshed on the event loops, between their reads and writes: each list's
    // events are sent before the next list is refreshed, with no thread to wake in between.
    server = try HTTPServer(configuration: configuration, handler: handler.handle) { loops in
        service.live.runUpdates(on: loops.map { $0.run })
    }
} catch {
    StandardError.writeLine("server: cannot listen on \(configuration.host):\(configuration.port): \(error)")
    exit(1)
}
statistics.attach(server.statistics)
StandardError.writeLine("level=info event=listening address=\(configuration.host):\(server.port) threads=\(configuration.loopCount)")

// Live streams get a jittered `retry:` and end before connections close, so clients reconnect spread out.
let signalSources = handleShutdownSignals(for: server, before: service.live.stop)
server.waitUntilStopped()
service.writes.finishBackgroundWork()
StandardError.writeLine("level=info event=stopped")
withExtendedLifetime((signalSources, keyRotation)) { exit(0) }
