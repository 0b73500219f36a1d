/// The rule for the project id in every `projects/{project}` path, FCM's and the emulator's own.
///
/// Google's project ids are 6 to 30 lowercase letters, digits and hyphens, and FCM's send path
/// also takes the numeric project number; older domain-scoped ids hold `.` and `:`. The emulator
/// takes all of those and short ids such as `p`, but nothing that could make two projects'
/// names run together or escape a path: no control characters (NUL), no `/`, no `%`, no
/// spaces, nothing over 100 characters. See docs/fcm.md.
public enum ProjectID {
    /// The most characters of a project id.
    public static let maximumLength = 100

    /// True for `[a-zA-Z0-9._:-]{1,100}`.
    public static func isValid(_ id: String) -> Bool {
        let bytes = id.utf8
        return !bytes.isEmpty && bytes.count <= maximumLength && bytes.allSatisfy(isAllowed)
    }

    /// The error for a project id that breaks the rule.
    public static var invalidError: GoogleError {
        .invalidArgument(
            "Invalid project id in the path: use 1 to \(maximumLength) of the characters a-z A-Z 0-9 - . : _"
                + " (a project id such as my-project-1234, or a project number).")
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x3A, 0x5F: true
        default: false
        }
    }
}
