/// An open long connection of a device (`:stream`). While it is open the device is online and
/// every new delivery goes to its listener at once. Close it when the client disconnects.
public final class DeviceStream: Sendable {
    private let core: PushEmulatorCore
    /// The project the stream was opened in (not whatever project has its id later).
    private let slot: ProjectSlot
    private let token: String
    let subscriber: StreamSubscriber

    init(core: PushEmulatorCore, slot: ProjectSlot, token: String, subscriber: StreamSubscriber) {
        self.core = core
        self.slot = slot
        self.token = token
        self.subscriber = subscriber
    }

    /// Ends the connection: the device is offline again (its `lastConnectedAt` is now) once its
    /// last stream closes. Closing twice does nothing.
    public func close() {
        // Detached first: a send posts to the device's subscribers under its shard's lock, so after
        // this none can post to it, and closing then settles everything it was given but did not
        // hand over (closed the other way round, an event posted in between was lost unsettled).
        core.detach(from: slot, token: token, subscriberID: subscriber.id)
        subscriber.close()
    }
}
