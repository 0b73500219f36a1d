import ArgumentParser
import HTTPServer

/// `push-emulator healthcheck`: exits 0 when the emulator on this machine answers `/healthz`, for
/// container health checks (no curl needed in the image).
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Exit 0 if the emulator answers GET /healthz, 1 otherwise (for HEALTHCHECK)."
    )

    @Option(help: "Address to probe (0.0.0.0 and :: mean this machine).")
    var host = "127.0.0.1"

    @Option(help: "Port to probe.")
    var port: UInt16 = 9499

    @Option(help: "Seconds to wait for the answer.")
    var timeout = 5

    func run() throws {
        let probed = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host
        if let problem = HealthProbe.problem(host: probed, port: port, timeoutSeconds: timeout) {
            print("push-emulator healthcheck: \(probed):\(port): \(problem)")
            throw ExitCode(1)
        }
    }
}
