/// A project's devices by FCM registration token: a dictionary keyed by `TokenKey`, read and
/// changed by the token string as a `[String: Device]` would be.
struct DeviceTable: Sendable {
    /// The position of a stored device, valid until a device is inserted or removed.
    typealias Index = Dictionary<TokenKey, Device>.Index

    private var storage: [TokenKey: Device] = [:]

    /// The device with `token`; setting nil removes it. Changed in place, not copied out.
    subscript(token: String) -> Device? {
        get { storage[key(for: token)] }
        _modify { yield &storage[key(for: token)] }
    }

    /// The devices, in no order; changed in place through an index.
    var values: Dictionary<TokenKey, Device>.Values {
        get { storage.values }
        _modify { yield &storage.values }
    }

    /// Every stored token, in no order.
    var tokens: [String] { storage.keys.map(\.token) }

    /// The position of the device with `token`.
    func index(forKey token: String) -> Index? {
        storage.index(forKey: key(for: token))
    }

    /// The token of the device at `index`.
    func token(at index: Index) -> String {
        storage.keys[index].token
    }

    /// Removes and returns the device with `token`.
    mutating func removeValue(forKey token: String) -> Device? {
        storage.removeValue(forKey: key(for: token))
    }

    /// The key to look `token` up by. Stored tokens are ASCII (every way of adding a device checks
    /// `RegistrationToken.isWellFormed`), but a non-ASCII token may still equal one as a string:
    /// it is looked for by comparing strings, as `[String: Device]` would find it.
    private func key(for token: String) -> TokenKey {
        let key = TokenKey(token)
        guard key.digest == TokenKey.unhashed else { return key }
        return storage.keys.first { $0.token == token } ?? key
    }
}
