/// SplitMix64: a small, fast generator whose same seed gives the same numbers everywhere (the
/// default data sets, tests), and whose mixing step turns a counter into well-spread ids
/// (trace and span ids).
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The step between states.
    public static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    public mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.mix(state)
    }

    /// The generator's output function: `state` scrambled so that neighbouring states give
    /// unrelated numbers.
    public static func mix(_ state: UInt64) -> UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    public mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
}
