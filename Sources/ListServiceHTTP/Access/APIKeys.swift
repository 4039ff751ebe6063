import Foundation
import HTTPLite

/// Who may write (and, with `--require-key-for-reads`, read): `Authorization: Bearer <key>`
/// against the keys of `--api-keys` or `LISTSERVICE_API_KEYS`, compared in constant time.
package struct APIKeys: Sendable {
    /// What a write needs.
    package enum WritePolicy: Sendable, Equatable {
        /// Anyone may write (a loopback server with no keys, or `--allow-anonymous-writes`).
        case open
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
            writes = boundToLoopback || allowsAnonymousWrites ? .open : .refused
        }
        coversReads = requireForReads && !keys.isEmpty
    }

    package static let open = APIKeys(keys: [], boundToLoopback: true)

    /// The keys in a file's text (or the environment variable's): one per line, or separated
    /// by commas or spaces; `#` starts a comment.
    package static func parse(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).flatMap { line in
            line.prefix { $0 != "#" }.split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
        }
    }

    /// Nil if `request` may proceed, else the 401 to answer (nothing has changed).
    func refusal(of request: Request) -> HTTPError? {
        if !request.method.isSafe {
            switch writes {
            case .open: return nil
            case .refused:
                return Self.unauthorized(
                    "This server listens beyond this machine and has no API keys: writes are refused. Start it with --api-keys FILE "
                        + "(or --allow-anonymous-writes).", error: nil)
            case .keyed: break
            }
        } else {
            guard coversReads, request.method != .options, !request.path.hasPrefix("/health") else { return nil }
        }
        guard let header = request.headers["Authorization"] else {
            return Self.unauthorized("This request needs an API key: send Authorization: Bearer <key>.", error: nil)
        }
        guard let presented = Self.bearerToken(header), matches(presented) else {
            return Self.unauthorized("The API key is not valid.", error: "invalid_token")
        }
        return nil
    }

    /// Whether `presented` is one of the keys, in time that depends only on the keys' and the
    /// presented key's lengths, never on where they first differ.
    private func matches(_ presented: [UInt8]) -> Bool {
        var found: UInt8 = 0
        for key in keys {
            var difference = key.count ^ presented.count
            for index in 0..<max(key.count, presented.count) {
                let a = index < key.count ? key[index] : 0
                let b = index < presented.count ? presented[index] : 0
                difference |= Int(a ^ b)
            }
            found |= difference == 0 ? 1 : 0
        }
        return found == 1
    }

    /// The token of `Bearer <token>` (the scheme in any case, RFC 9110 §11.1).
    private static func bearerToken(_ header: String) -> [UInt8]? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: [" ", "\t"])
        return token.isEmpty ? nil : Array(token.utf8)
    }

    private static func unauthorized(_ detail: String, error: String?) -> HTTPError {
        let challenge = "Bearer realm=\"listservice\"" + (error.map { ", error=\"\($0)\"" } ?? "")
        return HTTPError(.unauthorized, code: "unauthorized", detail: detail, headers: ["WWW-Authenticate": challenge])
    }
}
