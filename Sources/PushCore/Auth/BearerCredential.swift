/// The `Authorization: Bearer <token>` credential, the one reading of it for every API that takes
/// one (FCM's strict mode, the APNs provider API).
public enum BearerCredential {
    /// The token of `bearer <token>`: the scheme in any case, then spaces or tabs, the token without
    /// the blanks around it; nil when the header is another scheme or the token is empty.
    public static func token(in header: String?) -> Substring? {
        guard let header else { return nil }
        let value = header.drop(while: isBlank)
        guard value.utf8.count > scheme.utf8.count,
              value.prefix(scheme.count).lowercased() == scheme,
              let separator = value.dropFirst(scheme.count).first, isBlank(separator)
        else { return nil }
        let token = value.dropFirst(scheme.count).drop(while: isBlank)
        guard let last = token.lastIndex(where: { !isBlank($0) }) else { return nil }
        return token[...last]
    }

    private static let scheme = "bearer"

    private static func isBlank(_ character: Character) -> Bool {
        character == " " || character == "\t"
    }
}
