/// A project's devices by FCM registration token.
typealias DeviceTable = TokenTable<Device>

/// Values by token (an FCM registration token, an APNs device token): a dictionary keyed by
/// `TokenKey`, read and changed by the token string, hashing a token by its digest rather than
/// by `String`'s hash (several hundred instructions for a token of 64 or more bytes, and a send
/// looks its token up more than once) and comparing tokens byte for byte.
struct TokenTable<Value: Sendable>: Sendable {
    /// The position of a stored value, valid until a value is inserted or removed.
    typealias Index = Dictionary<TokenKey, Value>.Index

    private var storage: [TokenKey: Value] = [:]

    /// The value for `token`; setting nil removes it. Changed in place, not copied out.
    subscript(token: String) -> Value? {
        get { storage[TokenKey(token)] }
        _modify { yield &storage[TokenKey(token)] }
    }

    /// The value for `key`'s token, the key made before (its digest serves twice).
    subscript(key key: TokenKey) -> Value? {
        storage[key]
    }

    /// The value for `token`, `defaultValue()` when there is none; changed in place.
    subscript(token: String, default defaultValue: @autoclosure () -> Value) -> Value {
        get { storage[TokenKey(token)] ?? defaultValue() }
        _modify { yield &storage[TokenKey(token), default: defaultValue()] }
    }

    /// The values, in no order; changed in place through an index.
    var values: Dictionary<TokenKey, Value>.Values {
        get { storage.values }
        _modify { yield &storage.values }
    }

    /// Every stored token, in no order.
    var tokens: [String] { storage.keys.map(\.token) }

    /// The position of the value for `token`.
    func index(forKey token: String) -> Index? {
        storage.index(forKey: TokenKey(token))
    }

    /// The position of the value for `key`'s token, the key made before (`KnownDevice`).
    func index(forKey key: TokenKey) -> Index? {
        storage.index(forKey: key)
    }

    /// The key of the value at `index` (found again later by `index(forKey:)` without a new digest).
    func key(at index: Index) -> TokenKey {
        storage.keys[index]
    }

    /// The token of the value at `index`.
    func token(at index: Index) -> String {
        storage.keys[index].token
    }

    /// Removes and returns the value for `token`.
    mutating func removeValue(forKey token: String) -> Value? {
        storage.removeValue(forKey: TokenKey(token))
    }

    /// How many values are stored.
    var count: Int { storage.count }

    /// True when no value is stored.
    var isEmpty: Bool { storage.isEmpty }

    /// Every token with its value, in no order.
    var entries: [(token: String, value: Value)] { storage.map { ($0.key.token, $0.value) } }

    /// Removes every value.
    mutating func removeAll() {
        storage.removeAll()
    }
}
