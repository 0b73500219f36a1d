import HTTPServer
import PushCore
import Synchronization

/// The open `:stream` responses per device, so that uninstalling a device or resetting a project
/// ends them (the core drops its listeners without telling them).
final class DeviceStreams: Sendable {
    /// A device by its project and token side by side: a key joined into one string let a project
    /// whose id held the separator (`a\0b`) be taken for another's (`a`) when that one was reset.
    private struct DeviceKey: Hashable {
        let project: String
        let token: String
    }

    private let open = Mutex<[DeviceKey: [ObjectIdentifier: ResponseStream]]>([:])

    func add(_ stream: ResponseStream, project: String, token: String) {
        let key = DeviceKey(project: project, token: token)
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
                guard let token else { return key.project == project }
                return key == DeviceKey(project: project, token: token)
            }.flatMap { $0.value.values }
        }
        for stream in streams { stream.finish() }
    }
}
