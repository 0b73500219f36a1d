#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads and writes for small files (certificates, keys, state snapshots).
public enum FileIO {
    /// Reads a whole file.
    public static func read(_ path: String) throws -> [UInt8] {
        let fd = try blockingSyscall("open \(path)") { open(path, O_RDONLY | O_CLOEXEC) }
        defer { Socket.close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                try blockingSyscall("read \(path)") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }
            if count == 0 { return result }
            result += chunk[..<count]
        }
    }

    /// Writes a whole file atomically: to a temporary file in the same directory, flushed to
    /// disk (`fsync`), then renamed over `path`, and the directory flushed so that the rename
    /// lasts. Readers see the old file or the whole new one, never half of it, and a write that
    /// fails (a full disk, a crash) leaves the old file as it was.
    public static func write(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws {
        let temporary = path + ".tmp"
        let fd = try blockingSyscall("open \(temporary)") { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode) }
        do {
            var written = 0
            while written < bytes.count {
                let count = try bytes.withUnsafeBytes { buffer in
                    try blockingSyscall("write \(temporary)") { Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written) }
                }
                written += count
            }
            try blockingSyscall("fsync \(temporary)") { fsync(fd) }
        } catch {
            Socket.close(fd)
            unlink(temporary)
            throw error
        }
        Socket.close(fd)
        do {
            try blockingSyscall("rename \(path)") { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw error
        }
        try syncDirectory(of: path)
    }

    /// Flushes the directory holding `path`, so that a rename into it survives a crash.
    private static func syncDirectory(of path: String) throws {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let fd = try blockingSyscall("open \(directory)") { open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { Socket.close(fd) }
        try blockingSyscall("fsync \(directory)") { fsync(fd) }
    }

    /// True when `path` is a directory.
    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// True when `path` exists.
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Creates a directory and its parents (like `mkdir -p`).
    public static func makeDirectories(_ path: String) throws(SystemError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw SystemError(call: "mkdir \(current)", errno: errno)
            }
        }
    }
}
