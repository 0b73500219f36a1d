/// A deterministic random source (SplitMix64): reproducible tokens and ids in tests, and, seeded
/// from the system's generator, the emulator's own source of tokens and `apns-id`s.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Makes a generator whose sequence depends only on `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// Where its sequence stands: `init(seed:)` with it goes on with the same draws (a state
    /// snapshot keeps a fault's draws this way).
    var currentState: UInt64 { state }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
