import ByteCoding

func obj(_ members: (String, JSONValue)...) -> JSONValue {
    .object(JSONObject(members.map { JSONObject.Member(key: $0.0, value: $0.1) }))
}

func str(_ text: String) -> JSONValue { .string(text) }

func num(_ value: Int) -> JSONValue { .number(String(value)) }

/// Random draws that are the same in every run (SplitMix64), so that a failure reproduces.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
