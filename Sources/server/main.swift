import Dispatch
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

System.raiseOpenFileLimit()
let configuration = options.configuration
let router = ServiceRoutes.makeRouter()
let server: HTTPServer
do {
    server = try HTTPServer(configuration: configuration, handler: router.handle)
} catch {
    System.printError("server: cannot listen on \(configuration.host):\(configuration.port): \(error)")
    exit(1)
}
System.printError("level=info event=listening address=\(configuration.host):\(server.port) threads=\(configuration.loopCount)")

let signalSources = handleShutdownSignals(for: server)
server.waitUntilStopped()
System.printError("level=info event=stopped")
withExtendedLifetime(signalSources) { exit(0) }
