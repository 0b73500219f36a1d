/// FCM message names: `projects/{project}/messages/{id}`.
enum MessageName {
    /// The name of message `messageID` of `project`. Every send makes one, so its bytes are
    /// copied into one buffer of the right size rather than appended piece by piece.
    static func make(project: String, messageID: String) -> String {
        let prefix: StaticString = "projects/"
        let middle: StaticString = "/messages/"
        var project = project
        var messageID = messageID
        return project.withUTF8 { projectBytes in
            messageID.withUTF8 { idBytes in
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
    }
}
