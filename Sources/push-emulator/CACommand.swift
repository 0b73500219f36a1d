import ArgumentParser
import HTTPServer

/// `push-emulator ca`: prints the local CA's certificate (made if the data directory has none),
/// or with `--bundle` the system's roots followed by it, for the variables that replace the
/// default trust bundle (`REQUESTS_CA_BUNDLE`, `SSL_CERT_FILE`; docs/interception.md).
struct CACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "Print the emulator's CA certificate (PEM), or with --bundle the system's roots plus it."
    )

    @Option(help: "The data directory `serve` uses (default: /tmp/push-emulator-<uid>).")
    var dataDir: String?

    @Flag(help: "Print the system's trusted roots followed by the emulator's CA.")
    var bundle = false

    /// Where Debian (and the image) keeps the system's roots.
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    func run() throws {
        let authority = try CertificateAuthority(
            directory: dataDir ?? ServeCommand.defaultDataDirectory, names: ServeCommand.certificateNames)
        guard bundle else { return print(authority.caPEM, terminator: "") }
        let roots: [UInt8]
        do {
            roots = try FileIO.read(Self.systemBundle)
        } catch {
            throw ValidationError("--bundle needs the system's roots at \(Self.systemBundle) (Debian's ca-certificates): \(error)")
        }
        var text = String(decoding: roots, as: UTF8.self)
        if !text.hasSuffix("\n") { text += "\n" }
        print(text + authority.caPEM, terminator: "")
    }
}
