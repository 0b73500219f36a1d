/// Where the simulated app is, which decides what a notification does on arrival.
public enum AppState: String, Sendable, CaseIterable {
    case foreground
    case background
    case notRunning
}
