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

    /// Writes a whole file through a temporary name, so readers never see half of it.
    public static func write(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws {
        let temporary = path + ".tmp"
        let fd = try blockingSyscall("open \(temporary)") { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode) }
        var written = 0
        while written < bytes.count {
            let count = try bytes.withUnsafeBytes { buffer in
                try blockingSyscall("write \(temporary)") { Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written) }
            }
            written += count
        }
        Socket.close(fd)
        try blockingSyscall("rename \(path)") { rename(temporary, path) }
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
