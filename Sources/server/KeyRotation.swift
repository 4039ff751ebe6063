import Basics
import Dispatch
import Glibc
import ListServiceAuth

/// Reads the token keys' file again on SIGHUP and hands the new keys to `tokens`: a rotation
/// without a restart. A file that cannot be read or used leaves the keys in use and says so in
/// one line. `extraKeys` (the demo identities') stay. Keep the returned source alive for as
/// long as SIGHUP should be handled.
func handleKeyRotation(of tokens: TokenAuthority, from path: String, keeping extraKeys: [VerificationKey]) -> any DispatchSourceSignal {
    signal(SIGHUP, SIG_IGN)  // let the dispatch source, not the default action (ending the process), see it
    let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
    source.setEventHandler {
        do throws(ServerOptions.Failure) {
            let keys = try ServerOptions.readJWKS(path)
            tokens.replaceKeys(KeySet(keys: keys.keys, signedHere: extraKeys))
            StandardError.writeLine("level=info event=jwt-keys-reloaded path=\(LogFmt.value(path)) keys=\(keys.keys.count)")
        } catch {
            StandardError.writeLine(
                "level=error event=jwt-keys-reload-failed path=\(LogFmt.value(path)) reason=\(LogFmt.value(error.message)) "
                    + "keeping=previous-keys")
        }
    }
    source.resume()
    return source
}
