/// HMAC-SHA256 (RFC 2104) under one secret key: the tag that makes an access token self-checking
/// (`AccessTokenIssuer`). The key's inner and outer blocks are hashed once, here, so that a tag
/// of a short message costs two SHA-256 blocks.
struct HMACSHA256: Sendable {
    /// SHA-256 after the key XOR ipad.
    private let inner: SHA256
    /// SHA-256 after the key XOR opad.
    private let outer: SHA256

    /// The length of a tag.
    static let tagLength = SHA256.digestLength

    /// The key made of `key` (any length: a key longer than a block is hashed first).
    init(key: [UInt8]) {
        var block = key.count > SHA256.blockLength ? SHA256.digest(key) : key
        block += repeatElement(0, count: SHA256.blockLength - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        self.inner = inner
        self.outer = outer
    }

    /// The tag of `message` under this key: `tagLength` bytes.
    func tag(of message: [UInt8]) -> [UInt8] {
        var inner = self.inner
        inner.update(message)
        var outer = self.outer
        outer.update(inner.finish())
        return outer.finish()
    }
}
