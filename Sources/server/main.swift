import Foundation
import HTTPLite
import ListService

let options: ServerOptions
do {
    options = try ServerOptions.parse(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    System.printError("server: \(error.message)")
    exit(2)
}
if options.showsHelp {
    print(ServerOptions.usage)
    exit(0)
}

let loadStarted = Date()
let orders: OrderStore
do {
    orders = try ListService.loadStore(directory: options.dataDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) })
} catch {
    System.printError("server: cannot load data: \(error)")
    exit(1)
}
let loadMilliseconds = Int(Date().timeIntervalSince(loadStarted) * 1000)
System.printError(
    "level=info event=loaded orders=\(orders.snapshot.count) source=\(options.dataDirectory ?? "embedded") duration_ms=\(loadMilliseconds)")

System.raiseOpenFileLimit()
let service = ListService(
    orders: orders, sessions: SessionStore(capacity: options.maxSessions, timeToLive: options.sessionTimeToLive),
    sharedPages: options.sharedPages)
let statistics = ServerStatisticsBox()
let router = ServiceRoutes.makeRouter(service: service, server: { statistics.snapshot })
let configuration = options.configuration
let server: HTTPServer
do {
    server = try HTTPServer(configuration: configuration, handler: router.handle)
} catch {
    System.printError("server: cannot listen on \(configuration.host):\(configuration.port): \(error)")
    exit(1)
}
statistics.attach(server.statistics)
System.printError("level=info event=listening address=\(configuration.host):\(server.port) threads=\(configuration.loopCount)")

let signalSources = handleShutdownSignals(for: server)
server.waitUntilStopped()
System.printError("level=info event=stopped")
withExtendedLifetime(signalSources) { exit(0) }
