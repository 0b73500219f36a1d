import ArgumentParser
// Links tcmalloc, which takes over malloc for the whole process (see Package.swift); sanitizer
// builds leave it out.
#if canImport(CTCMalloc)
import CTCMalloc
#endif

/// `push-emulator`: the command-line entry point.
@main
struct PushEmulatorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push-emulator",
        abstract: "A local emulator of Firebase Cloud Messaging (HTTP v1) and the Apple Push Notification service.",
        discussion: "Every option can also be set through the environment as PUSH_EMULATOR_<OPTION>, e.g. PUSH_EMULATOR_PORT=9499.",
        subcommands: [ServeCommand.self, CACommand.self, HealthcheckCommand.self],
        defaultSubcommand: ServeCommand.self
    )

    static func main() {
        let arguments = EnvironmentOptions.merge(
            arguments: Array(CommandLine.arguments.dropFirst()),
            environment: EnvironmentOptions.current(),
            options: ServeCommand.environmentOptions,
            subcommandOptions: ["ca": [.init(name: "data-dir")], "healthcheck": [.init(name: "host"), .init(name: "port")]]
        )
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
