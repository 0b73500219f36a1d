/// Why a `TestEmulator` call failed: the emulator's answer, or no answer.
public struct TestEmulatorError: Error, CustomStringConvertible, Sendable {
    /// What happened, with the emulator's answer when there is one.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
