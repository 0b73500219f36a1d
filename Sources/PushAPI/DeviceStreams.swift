import HTTPServer
import PushCore
import Synchronization

/// The open `:stream` responses per device, so that uninstalling a device or resetting a project
/// ends them (the core drops its listeners without telling them).
final class DeviceStreams: Sendable {
    private let open = Mutex<[String: [ObjectIdentifier: ResponseStream]]>([:])

    private static func key(_ project: String, _ token: String) -> String { project + "\u{0}" + token }

    func add(_ stream: ResponseStream, project: String, token: String) {
        let key = Self.key(project, token)
        open.withLock { $0[key, default: [:]][ObjectIdentifier(stream)] = stream }
        stream.onClose { [weak self] in
            self?.open.withLock { open in
                open[key]?[ObjectIdentifier(stream)] = nil
                if open[key]?.isEmpty == true { open[key] = nil }
            }
        }
    }

    /// Ends the streams of one device, of a project (token nil), or of everything (both nil).
    func finish(project: String? = nil, token: String? = nil) {
        let streams = open.withLock { open -> [ResponseStream] in
            open.filter { key, _ in
                guard let project else { return true }
                guard let token else { return key.hasPrefix(project + "\u{0}") }
                return key == Self.key(project, token)
            }.flatMap { $0.value.values }
        }
        for stream in streams { stream.finish() }
    }
}
