import ArgumentParser
import HTTPServer
import PushCore

/// `--import` and `--export-on-exit`: a state snapshot in a file (docs/state.md).
enum StateFile {
    /// Checks the paths before anything starts: the file to import must be there, the file to
    /// export to must be a file name in an existing directory.
    static func validate(importPath: String?, exportPath: String?) throws {
        if let importPath {
            guard FileIO.exists(importPath), !FileIO.isDirectory(importPath) else {
                throw ValidationError("--import \(importPath): no such file (give a state snapshot written by --export-on-exit or GET /emulator/v1/state)")
            }
        }
        if let exportPath {
            let directory = exportPath.lastIndex(of: "/").map { String(exportPath[..<$0]) } ?? "."
            guard !exportPath.hasSuffix("/"), !FileIO.isDirectory(exportPath), FileIO.isDirectory(directory.isEmpty ? "/" : directory) else {
                throw ValidationError("--export-on-exit \(exportPath): must name a file in an existing directory")
            }
        }
    }

    /// Replaces the core's state with the snapshot in `path`.
    /// - Throws: a `ValidationError` (exit code 64) saying what is wrong with the file.
    static func load(_ path: String, into core: PushEmulatorCore) throws {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path)
        } catch {
            throw ValidationError("--import \(path): cannot read it: \(error)")
        }
        do throws(SnapshotError) {
            try core.importState(bytes)
        } catch {
            throw ValidationError("--import \(path) is not a usable state snapshot: \(error)")
        }
    }

    /// Writes the core's state to `path` atomically: a failed write leaves an earlier export whole.
    /// - Throws: `ExportError` (exit code 1, its message on standard error).
    static func save(_ core: PushEmulatorCore, to path: String) throws {
        do {
            try FileIO.write(path, core.exportStateBytes())
        } catch {
            throw ExportError(description: "--export-on-exit \(path): could not write the state (an earlier file is left as it was): \(error)")
        }
    }

    /// A failed export on exit.
    struct ExportError: Error, CustomStringConvertible {
        let description: String
    }
}
