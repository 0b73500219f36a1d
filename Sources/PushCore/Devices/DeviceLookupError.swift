/// Why an operation on one device found no device.
public enum DeviceLookupError: Error, Sendable, Equatable {
    /// No device has this token in the project.
    case notFound
    /// The device was deleted (the app uninstalled) at this time.
    case uninstalled(at: Timestamp)
}
