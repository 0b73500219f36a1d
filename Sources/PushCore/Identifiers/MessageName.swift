import ByteCoding

/// FCM message names: `projects/{project}/messages/{id}`.
enum MessageName {
    /// The name of message `messageID` of `project`. Every send makes one, from its id's digits
    /// where they lie (`MessageIDGenerator.makeName`), so it is made in one buffer of the right
    /// size rather than by interpolation.
    static func make(project: String, messageID: some ContiguousUTF8Bytes) -> String {
        String(concatenating: "projects/" as StaticString, project, "/messages/" as StaticString, messageID)
    }

    /// The message id: what follows the last `/` of `name`.
    static func messageID(of name: String) -> String {
        String(name[name.index(after: name.lastIndex(of: "/")!)...])
    }
}
