/// FCM message names: `projects/{project}/messages/{id}`.
enum MessageName {
    /// The name of message `messageID` of `project`. Every send makes one, so its bytes are
    /// copied into one buffer of the right size rather than appended piece by piece.
    static func make(project: String, messageID: String) -> String {
        // The strings' own bytes, read in place: `withUTF8` needs each as a `var`, a copy.
        let made = project.utf8.withContiguousStorageIfAvailable { projectBytes in
            messageID.utf8.withContiguousStorageIfAvailable { idBytes in make(projectBytes, idBytes) }
        }
        if let made = made ?? nil { return made }
        let projectBytes = Array(project.utf8)
        let idBytes = Array(messageID.utf8)
        return projectBytes.withUnsafeBufferPointer { project in
            idBytes.withUnsafeBufferPointer { id in make(project, id) }
        }
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
