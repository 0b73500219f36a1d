/// The numeric sender id a project's messages carry in `google.c.sender.id`.
public enum SenderID {
    /// A stable 12-digit number derived from the project id (FNV-1a, so it is the same in every
    /// run and on every machine — Swift's `hashValue` is seeded per process).
    public static func derived(fromProjectID projectID: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in projectID.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return String(100_000_000_000 + hash % 900_000_000_000)
    }
}
