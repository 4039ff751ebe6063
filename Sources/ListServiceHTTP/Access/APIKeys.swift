import Foundation
import HTTPLite

/// Who may write (and, with `--require-key-for-reads`, read) without a token:
/// `Authorization: Bearer <key>` against the keys of `--api-keys` or `LISTSERVICE_API_KEYS`,
/// compared in constant time. A key's holder has the role `service`.
package struct APIKeys: Sendable {
    /// What a write needs.
    package enum WritePolicy: Sendable, Equatable {
        /// Anyone may write: asked for (`--allow-anonymous-writes`).
        case open
        /// Anyone on this machine may write: the default of a loopback server with no keys. A
        /// request a proxy passed on (`Request.isForwarded`) is not from this machine: 401.
        case openOnLoopback
        /// A listed key.
        case keyed
        /// Nobody: a server on the network with no keys configured refuses every write.
        case refused
    }

    private let keys: [[UInt8]]
    package let writes: WritePolicy
    /// Reads need a key too (`--require-key-for-reads`); `/health` stays open for probes.
    package let coversReads: Bool

    /// `keys` (empty: none configured); `boundToLoopback` and `allowsAnonymousWrites` decide
    /// what writes need when there are none.
    package init(keys: [String], requireForReads: Bool = false, boundToLoopback: Bool, allowsAnonymousWrites: Bool = false) {
        self.keys = keys.map { Array($0.utf8) }
        if !keys.isEmpty {
            writes = .keyed
        } else {
            writes = allowsAnonymousWrites ? .open : boundToLoopback ? .openOnLoopback : .refused
        }
        coversReads = requireForReads && !keys.isEmpty
    }

    package static let open = APIKeys(keys: [], boundToLoopback: true, allowsAnonymousWrites: true)

    /// The keys in a file's text (or the environment variable's): one per line, or separated
    /// by commas or spaces; `#` starts a comment.
    package static func parse(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).flatMap { line in
            line.prefix { $0 != "#" }.split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
        }
    }

    /// Which key `presented` is (its place in the list, from 1), nil for none, in time that
    /// depends only on the keys' and the presented key's lengths, never on where they differ.
    func number(of presented: [UInt8]) -> Int? {
        var found = 0
        for (position, key) in keys.enumerated() {
            var difference = key.count ^ presented.count
            for index in 0..<max(key.count, presented.count) {
                let a = index < key.count ? key[index] : 0
                let b = index < presented.count ? presented[index] : 0
                difference |= Int(a ^ b)
            }
            found |= difference == 0 ? position + 1 : 0
        }
        return found == 0 ? nil : found
    }

    /// Whether the keys cover `request` without a credential: reads do unless keys cover them
    /// (`/health` and preflights never); writes (requests that may change data) unless the
    /// write policy is open. Nil when it may go ahead anonymously, else the 401.
    func anonymousRefusal(of request: Request, changesData: Bool) -> HTTPError? {
        if changesData {
            switch writes {
            case .open: return nil
            case .openOnLoopback:
                guard request.isForwarded else { return nil }
                return Credentials.unauthorized(
                    "This request came through a proxy (it carries Forwarded, X-Forwarded-For or X-Real-IP): writes without a "
                        + "credential are open by default only to callers on the server's own machine. Give the server --api-keys FILE "
                        + "or --jwt-keys FILE (or --allow-anonymous-writes).", error: nil)
            case .refused:
                return Credentials.unauthorized(
                    "This server listens beyond this machine and has no API keys: writes are refused. Start it with --api-keys FILE "
                        + "(or --allow-anonymous-writes).", error: nil)
            case .keyed: break
            }
        } else {
            guard coversReads, request.method != .options, !request.path.hasPrefix("/health") else { return nil }
        }
        return Credentials.unauthorized("This request needs an API key or a token: send Authorization: Bearer <key>.", error: nil)
    }
}
