import Basics
import Foundation

/// The service's bearer-token verification: the current verifier (its keys replaced on
/// `SIGHUP` without a restart) and a bounded cache of tokens already verified, so a warm
/// request does not check an RS256 signature again. A cached token is taken until its
/// `exp` (plus the leeway); new keys empty the cache, so a token of a removed key stops at once.
package final class TokenAuthority: Sendable {
    private let state: Locked<State>
    /// The most tokens remembered; past it, expired ones go first, then the oldest half.
    private let capacity: Int

    private struct State {
        var verifier: TokenVerifier
        var verified: [String: VerifiedToken] = [:]
        /// Tokens in the order they were cached, for evicting the oldest.
        var order: [String] = []
    }

    package init(verifier: TokenVerifier, capacity: Int = 10_000) {
        state = Locked(State(verifier: verifier))
        self.capacity = max(1, capacity)
    }

    /// Replaces the keys (a rotation); every cached verification is forgotten.
    package func replaceKeys(_ keys: KeySet) {
        state.withLock { state in
            state.verifier = TokenVerifier(keys: keys, configuration: state.verifier.configuration)
            state.verified = [:]
            state.order = []
        }
    }

    /// The identity `token` proves at `now`, from the cache or verified now.
    package func verify(_ token: String, now: Date) -> Result<VerifiedToken, TokenRefusal> {
        if let cached = state.withLock({ $0.verified[token] }) { return now < cached.expiresAt ? .success(cached) : .failure(.expired) }
        let verifier = state.withLock { $0.verifier }
        let result = verifier.verify(token, now: now)
        if case .success(let verified) = result { remember(token, verified, verifiedWith: verifier.keys, now: now) }
        return result
    }

    /// How many verified tokens are remembered now.
    package var cachedCount: Int { state.withLock { $0.verified.count } }

    private func remember(_ token: String, _ verified: VerifiedToken, verifiedWith keys: KeySet, now: Date) {
        state.withLock { state in
            // Keys replaced while this token was verified: the old keys' answer is not kept.
            guard state.verifier.keys.keys.elementsEqual(keys.keys, by: ===) else { return }
            if state.verified.count >= capacity {
                state.verified = state.verified.filter { now < $0.value.expiresAt }
                state.order.removeAll { state.verified[$0] == nil }
                if state.verified.count >= capacity {
                    for old in state.order.prefix(capacity / 2 + 1) { state.verified[old] = nil }
                    state.order.removeFirst(min(state.order.count, capacity / 2 + 1))
                }
            }
            if state.verified.updateValue(verified, forKey: token) == nil { state.order.append(token) }
        }
    }
}
