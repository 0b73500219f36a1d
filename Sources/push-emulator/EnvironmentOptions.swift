#if canImport(Glibc)
import Glibc
#endif

/// Turns `PUSH_EMULATOR_<OPTION>` environment variables into command-line options, so that every
/// flag can also be set from the environment (docker-compose). The command line wins.
enum EnvironmentOptions {
    /// One option that may come from the environment.
    struct Option {
        /// The flag without dashes, e.g. `tls-cert`.
        let name: String
        /// True for on/off flags (`--no-<name>` turns them off).
        var isFlag = false

        /// `PUSH_EMULATOR_TLS_CERT`.
        var variable: String {
            "PUSH_EMULATOR_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
        }
    }

    static func current() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    /// The arguments with options from the environment put before the user's own: `serve`'s
    /// `options`, or for another subcommand named first only the ones it takes (in a container
    /// `PUSH_EMULATOR_PORT` is set for `serve` and read by `healthcheck` too).
    static func merge(
        arguments: [String], environment: [String: String], options: [Option], subcommandOptions: [String: [Option]] = [:]
    ) -> [String] {
        if let first = arguments.first, let taken = subcommandOptions[first] {
            return [first] + injected(from: environment, options: taken, given: arguments) + arguments.dropFirst()
        }
        let injected = injected(from: environment, options: options, given: arguments)
        // Options belong to `serve`, the default subcommand: name it when injecting.
        if injected.isEmpty { return arguments }
        if arguments.first == "serve" { return ["serve"] + injected + arguments.dropFirst() }
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" || $0 == "help" }) { return arguments }
        return ["serve"] + injected + arguments
    }

    /// The options `environment` sets and `given` does not.
    private static func injected(from environment: [String: String], options: [Option], given arguments: [String]) -> [String] {
        var injected: [String] = []
        for option in options {
            guard let value = environment[option.variable] else { continue }
            let given = arguments.contains { $0 == "--\(option.name)" || $0.hasPrefix("--\(option.name)=") || $0 == "--no-\(option.name)" }
            guard !given else { continue }
            if option.isFlag {
                injected.append(["1", "true", "yes", "on"].contains(value.lowercased()) ? "--\(option.name)" : "--no-\(option.name)")
            } else {
                for part in value.split(separator: ",") { injected += ["--\(option.name)", String(part)] }
            }
        }
        return injected
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
