/// Why a device's app could not be reinstalled.
public enum DeviceReinstallError: Error, Sendable, Equatable {
    /// No device has the token.
    case lookup(DeviceLookupError)
    /// The project's device sequence is at its maximum (docs/state.md, "Counters").
    case counterExhausted(CounterExhausted)
}
