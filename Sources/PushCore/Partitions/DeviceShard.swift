import ByteCoding

/// The device that has an APNs token, as the APNs token's shard knows it: its registration
/// token, and its bundle id and APNs environment, which an APNs push checks against its topic and
/// host with this shard's lock alone (a change of either on the device changes this entry too).
struct APNsTokenOwner: Sendable {
    let token: String
    var bundleID: String
    /// Nil: the token works in either environment.
    var environment: APNsEnvironment?
}

/// One of a project's shards: the devices whose registration token falls in it
/// (`DeviceShard.index(of:)`), their deliveries, expiries and open streams, and the entries of
/// the APNs token index whose APNs token falls in it. Each shard has a lock of its own in the
/// project's `ProjectSlot`, so sends to devices of one project in different shards queue side by
/// side; what a send shares with the rest of the project (the message log) is taken briefly
/// after the shard (docs/ARCHITECTURE.md, "Concurrency: what is locked where").
struct DeviceShard: Sendable {
    /// How many shards a project has: more than the loops that send at once on a large machine,
    /// so that two sends to different devices seldom meet.
    static let count = 16

    var devices = DeviceTable()
    var uninstalledTokens = TokenTable<Timestamp>()
    /// The message log sequences of uninstalled devices (`Device.messageLogSequences`), by token:
    /// their messages still match the log's `token` filter, and a device registered again with
    /// the token carries on with them.
    var messageLogSequencesOfUninstalled = TokenTable<ChunkedArray<Int>>()
    /// The device of each APNs token that falls in this shard (the device itself may be in
    /// another).
    var tokenByAPNsToken = TokenTable<APNsTokenOwner>()
    /// When each APNs token that falls in this shard was uninstalled (or is unregistered from,
    /// for a device uninstalled with an `unregisterAfter`).
    var uninstalledAPNsTokens = TokenTable<Timestamp>()
    /// The devices of this shard uninstalled so lately that sends to them are still accepted, as
    /// they were (queues, streams and subscriptions gone): a send is still converted for them,
    /// and refused as it would have been.
    var lingeringDevices = TokenTable<Device>()
    /// The APNs token entries of those devices whose APNs token falls in this shard: a push is
    /// still checked against their topic and environment.
    var lingeringAPNsOwners = TokenTable<APNsTokenOwner>()
    /// What each device of this shard has used of its per-device limits, by registration token
    /// (kept only while the project has limits: `takeDeviceQuota`).
    var quotaUse = TokenTable<DeviceQuotaUse>()
    /// The deliveries of this shard's devices, by number. Numbers are taken under the shard's
    /// lock, so each shard's store grows in number order.
    var deliveries = DeliveryStore()
    /// The expiry of every stored delivery, earliest first, so that a read expires what is due
    /// without visiting the rest. Entries of deliveries that have left their queue since
    /// (delivered, collapsed, deleted, dropped) stay until they come up and are skipped then.
    var expiries = MinHeap<PendingExpiry>()
    /// The release time of every delayed collapsible message (`Delivery.heldUntil`) that no
    /// sweep has reached yet, earliest first (`releaseHeld`).
    var held = MinHeap<HeldRelease>()
    /// When each Android device's token expires if it stays away, earliest first: one entry per
    /// token at most (`tokensWithExpiry`), which may be early (the device connected since) and is
    /// then put back at the device's time when it comes up (`dueExpiredTokens`).
    var tokenExpiries = MinHeap<TokenExpiry>()
    var tokensWithExpiry = Set<String>()
    var streams: [String: [StreamSubscriber]] = [:]
    /// The source of the `apns-id`s generated for this shard's sends, seeded from the project's.
    var random = SeededRandomNumberGenerator(seed: 0)
    /// Set on the empty shard left in the slot of a removed project (`ProjectSlot`).
    var isRemoved = false

    /// The empty shard a removed project leaves in its slot.
    static var removed: DeviceShard {
        var shard = DeviceShard()
        shard.isRemoved = true
        return shard
    }

    /// The shard of a registration or APNs token: the top bits of the digest its tables hash
    /// (the tables' `Hasher` mixes the whole digest, so a shard's keys still spread).
    static func index(of key: TokenKey) -> Int {
        Int(truncatingIfNeeded: key.digest >> 60) & (count - 1)
    }

    /// The shard of `token`.
    static func index(of token: String) -> Int {
        index(of: TokenKey(token))
    }

    /// The sequences of the message log's entries that reached the device with `token`, stored
    /// or uninstalled, in log order (empty for a token the log never reached).
    func messageLogSequences(of token: String) -> ChunkedArray<Int> {
        devices[token]?.messageLogSequences ?? messageLogSequencesOfUninstalled[token] ?? ChunkedArray()
    }

    /// Notes that the log entry `sequence` names the uninstalled device of `token` (a send accepted
    /// after its uninstall), so that the log's `token` filter finds it.
    mutating func noteLogEntryOfUninstalled(_ token: String, sequence: Int) {
        var sequences = messageLogSequencesOfUninstalled.removeValue(forKey: token) ?? ChunkedArray()
        sequences.append(sequence)
        messageLogSequencesOfUninstalled[token] = sequences
    }

    /// Why a device cannot be found by token.
    func lookupError(token: String) -> DeviceLookupError {
        uninstalledTokens[token].map { .uninstalled(at: $0) } ?? .notFound
    }

    /// Where the device of registration token `key` is, when it has the APNs token `apnsToken`
    /// (in either case: the device keeps it in lower case); nil otherwise. `mutating` only so
    /// that the device is read in place.
    mutating func position(ofDevice key: TokenKey, withAPNsToken apnsToken: String) -> DeviceTable.Index? {
        guard let position = devices.index(forKey: key) else { return nil }
        let has = Self.read(&devices.values[position]) { device in
            // Compared as given first: the scan for capitals runs only when that fails.
            device.apnsToken == apnsToken
                || (ASCIIScan.hasUppercase(apnsToken) && device.apnsToken == APNsDeviceToken.normalized(apnsToken))
        }
        return has ? position : nil
    }

    /// Runs `body` on a stored device reached through its mutable accessor, which, unlike the
    /// getter of `devices.values[slot]`, does not copy it.
    static func read<Value, Failure: Error>(
        _ device: inout Device, _ body: (Device) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        try body(device)
    }

    /// Runs `body` on a stored device reached through its mutable accessor, changing it in place.
    static func change<Value>(_ device: inout Device, _ body: (inout Device) -> Value) -> Value {
        body(&device)
    }
}
