/// FCM message names: `projects/{project}/messages/{id}`.
enum MessageName {
    /// The name of message `messageID` of `project`.
    static func make(project: String, messageID: String) -> String {
        let made = messageID.utf8.withContiguousStorageIfAvailable { make(project: project, messageIDBytes: $0) }
        if let made { return made }
        return Array(messageID.utf8).withUnsafeBufferPointer { make(project: project, messageIDBytes: $0) }
    }

    /// The name of the message whose id is `idBytes` of `project`. Every send makes one, so its
    /// bytes are copied into one buffer of the right size rather than appended piece by piece.
    static func make(project: String, messageIDBytes idBytes: UnsafeBufferPointer<UInt8>) -> String {
        // The string's own bytes, read in place: `withUTF8` needs it as a `var`, a copy.
        let made = project.utf8.withContiguousStorageIfAvailable { make($0, idBytes) }
        if let made { return made }
        return Array(project.utf8).withUnsafeBufferPointer { make($0, idBytes) }
    }

    /// The message id: what follows the last `/` of `name`.
    static func messageID(of name: String) -> String {
        String(name[name.index(after: name.lastIndex(of: "/")!)...])
    }

    private static func make(_ projectBytes: UnsafeBufferPointer<UInt8>, _ idBytes: UnsafeBufferPointer<UInt8>) -> String {
        let prefix: StaticString = "projects/"
        let middle: StaticString = "/messages/"
        let count = prefix.utf8CodeUnitCount + projectBytes.count + middle.utf8CodeUnitCount + idBytes.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            // Raw copies: initializing through slices of the buffer goes element by element.
            var written = 0
            func put(_ part: UnsafeRawBufferPointer) {
                UnsafeMutableRawBufferPointer(start: buffer.baseAddress! + written, count: part.count)
                    .copyMemory(from: part)
                written &+= part.count
            }
            put(UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
            put(UnsafeRawBufferPointer(projectBytes))
            put(UnsafeRawBufferPointer(start: middle.utf8Start, count: middle.utf8CodeUnitCount))
            put(UnsafeRawBufferPointer(idBytes))
            return written
        }
    }
}
