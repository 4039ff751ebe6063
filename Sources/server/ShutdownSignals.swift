import Basics
import Dispatch
import Glibc
import HTTPLite

/// Turns SIGTERM and SIGINT into a graceful shutdown of `server`, after `before` (which ends
/// what would otherwise hold connections open). Keep the returned sources alive for as long
/// as the signals should be handled.
func handleShutdownSignals(for server: HTTPServer, before: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
    [SIGTERM, SIGINT].map { number in
        signal(number, SIG_IGN)  // let the dispatch source, not the default action, see it
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            StandardError.writeLine("level=info event=shutdown signal=\(number)")
            before()
            server.shutdown()
        }
        source.resume()
        return source
    }
}
