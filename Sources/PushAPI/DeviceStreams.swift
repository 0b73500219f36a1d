import HTTPServer
import PushCore
import Locking

/// The open `:stream` responses per device, so that uninstalling a device or resetting a project
/// ends them (the core drops its listeners without telling them).
final class DeviceStreams: Sendable {
    /// A device by its project and token side by side: a key joined into one string let a project
    /// whose id held the separator (`a\0b`) be taken for another's (`a`) when that one was reset.
    private struct DeviceKey: Hashable {
        let project: String
        let token: String
    }

    /// A device's open streams, and the ones granted but not started yet.
    private struct Streams {
        var open: [ObjectIdentifier: ResponseStream] = [:]
        var reserved = 0
        var count: Int { open.count + reserved }
    }

    private let devices = Locked<[DeviceKey: Streams]>([:])
    /// How many streams one device may have open at once.
    let limitPerDevice: Int

    init(limitPerDevice: Int) {
        self.limitPerDevice = limitPerDevice
    }

    /// Takes one of the device's stream places; false when all `limitPerDevice` are taken. Each
    /// place taken is then filled by `add` or given back by `cancel`.
    func reserve(project: String, token: String) -> Bool {
        devices.withLock { devices in
            let key = DeviceKey(project: project, token: token)
            guard devices[key, default: Streams()].count < limitPerDevice else { return false }
            devices[key, default: Streams()].reserved += 1
            return true
        }
    }

    /// Gives back a place `reserve` took, for a stream that did not start.
    func cancel(project: String, token: String) {
        devices.withLock { devices in
            let key = DeviceKey(project: project, token: token)
            devices[key]?.reserved -= 1
            if devices[key]?.count == 0 { devices[key] = nil }
        }
    }

    /// Fills a place `reserve` took with the started stream, until it closes.
    func add(_ stream: ResponseStream, project: String, token: String) {
        let key = DeviceKey(project: project, token: token)
        devices.withLock { devices in
            devices[key, default: Streams()].reserved -= 1
            devices[key, default: Streams()].open[ObjectIdentifier(stream)] = stream
        }
        stream.onClose { [weak self] in
            self?.devices.withLock { devices in
                devices[key]?.open[ObjectIdentifier(stream)] = nil
                if devices[key]?.count == 0 { devices[key] = nil }
            }
        }
    }

    /// Ends the streams of one device, of a project (token nil), or of everything (both nil).
    func finish(project: String? = nil, token: String? = nil) {
        let streams = devices.withLock { devices -> [ResponseStream] in
            devices.filter { key, _ in
                guard let project else { return true }
                guard let token else { return key.project == project }
                return key == DeviceKey(project: project, token: token)
            }.flatMap { $0.value.open.values }
        }
        for stream in streams { stream.finish() }
    }
}
