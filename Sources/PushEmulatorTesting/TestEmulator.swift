import ByteCoding
#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import Locking
import PushAPI
import PushCore

/// An emulator running in the test's own process, for a Swift backend's tests (docs/testing.md,
/// "Swift"): started on a free port of 127.0.0.1, with a local CA of its own, stopped by `stop()`.
/// Linux only, as the emulator is.
///
/// ```swift
/// let emulator = try TestEmulator.start()
/// defer { emulator.stop() }
/// let device = try await emulator.registerDevice(.ios(bundleID: "com.example.app"))
/// try await emulator.send(#"{"token":"\#(device.token)","notification":{"title":"Hi"}}"#)
/// let delivery = try await emulator.nextDelivery(to: device)
/// ```
public final class TestEmulator: Sendable {
    /// `http://127.0.0.1:<port>`: FCM's and the admin API's base URL over HTTP/1.1 or h2c.
    public let baseURL: String
    /// `https://localhost:<port>`: the same over TLS (HTTP/2 or HTTP/1.1), for APNs clients; trust
    /// `caCertificatePEM`.
    public let tlsBaseURL: String
    /// The port it listens on.
    public let port: UInt16
    /// The PEM certificate of the CA that signed the server's certificate (for `localhost`,
    /// `127.0.0.1`, `::1` and the real services' host names).
    public let caCertificatePEM: String
    /// The project that calls without a `project` use.
    public let project: String

    private let server: EmulatorServer
    private let client: LoopbackClient
    /// The id of the last message `nextDelivery` returned, by device token.
    private let seen = Locked<[String: String]>([:])

    private init(server: EmulatorServer, caPEM: String, project: String) throws(TestEmulatorError) {
        self.server = server
        port = server.port
        baseURL = "http://127.0.0.1:\(port)"
        tlsBaseURL = "https://localhost:\(port)"
        caCertificatePEM = caPEM
        self.project = project
        client = try LoopbackClient(base: baseURL)
    }

    /// Starts an emulator: `threads` event loops, sends to `project` unless a call names another.
    public static func start(project: String = "test", threads: Int = 1) throws -> TestEmulator {
        // A peer that closes while a TLS write is under way must not end the test process.
        signal(SIGPIPE, SIG_IGN)
        let authority = try CertificateAuthority(directory: nil, names: ["localhost", "127.0.0.1", "::1"] + InterceptedHosts.names)
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.threads = max(1, threads)
        configuration.accessLog = nil
        configuration.tls = try TLSContext(authority: authority)
        var settings = EmulatorApp.Settings(caPEM: authority.caPEM)
        settings.loops = configuration.threads
        let server = try EmulatorServer(app: EmulatorApp(settings: settings), configuration: configuration)
        do {
            return try TestEmulator(server: server, caPEM: authority.caPEM, project: project)
        } catch {
            server.stop()
            throw error
        }
    }

    /// Stops it: the port closes and every state is gone.
    public func stop() {
        server.stop()
    }

    /// Registers an app install (`POST /emulator/v1/projects/{project}/devices`) and returns it.
    public func registerDevice(_ app: TestDevice.App, project: String? = nil) async throws -> TestDevice {
        let body = try await client.json("POST", "/emulator/v1/projects/\(project ?? self.project)/devices", body: app.registration, expecting: 201)
        guard let token = body["token"]?.stringValue else { throw TestEmulatorError("the registration answered no token: \(body)") }
        return TestDevice(token: token, apnsToken: body["apnsToken"]?.stringValue, project: project ?? self.project)
    }

    /// Sends an FCM message (`POST /v1/projects/{project}/messages:send`), given as the JSON of
    /// its `message` object; returns the message's name (`projects/<p>/messages/<id>`).
    @discardableResult
    public func send(_ messageJSON: String, project: String? = nil) async throws -> String {
        let message: JSONValue
        do {
            message = try JSONParser.parse(Array(messageJSON.utf8))
        } catch {
            throw TestEmulatorError("the message is not JSON: \(error)")
        }
        let body = JSONSerializer.serialize(.object(["message": message]))
        let answer = try await client.json(
            "POST", "/v1/projects/\(project ?? self.project)/messages:send", body: body, expecting: 200,
            headers: [("Authorization", "Bearer test")])
        guard let name = answer["name"]?.stringValue else { throw TestEmulatorError("the send answered no name: \(answer)") }
        return name
    }

    /// Waits up to `timeoutSeconds` (at most 60) for the next delivery to `device` after the one
    /// this method returned last, and returns it: what the device receives, `pending` while it is
    /// not connected. Throws when none comes in time.
    public func nextDelivery(to device: TestDevice, timeoutSeconds: Int = 10) async throws -> TestDelivery {
        let after = seen.withLock { $0[device.token] }
        var query = "token=\(Self.escaped(device.token))&waitSeconds=\(min(max(timeoutSeconds, 0), 60))"
        if let after { query += "&after=\(after)" }
        let answer = try await client.json("GET", "/emulator/v1/projects/\(device.project)/messages?\(query)", expecting: 200)
        // Newest first: the next one is the last.
        guard let message = answer["messages"]?.arrayValue?.last,
              let messageID = message["messageId"]?.stringValue,
              let delivery = message["deliveries"]?.arrayValue?.first(where: { $0["token"]?.stringValue == device.token })
        else {
            throw TestEmulatorError("no delivery to \(device.token) within \(timeoutSeconds) s")
        }
        seen.withLock { $0[device.token] = messageID }
        return TestDelivery(delivery, messageName: message["name"]?.stringValue ?? "")
    }

    /// Any request to the emulator's API over loopback HTTP/1.1, for what the calls above do not
    /// cover (faults, the clock, topics): the status and the body.
    public func request(_ method: String, _ path: String, json body: String? = nil) async throws -> (status: Int, body: String) {
        let response = try await client.send(method, path, body: body.map { Array($0.utf8) } ?? [])
        return (response.status, response.text)
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return result
    }
}
