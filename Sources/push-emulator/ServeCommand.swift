import ArgumentParser
import HTTPServer
import PushAPI
import PushCore
import Signatures
#if canImport(Glibc)
import Glibc
#endif

/// `push-emulator serve`: runs the emulator until SIGTERM or SIGINT.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the emulator (the default command)."
    )

    @Option(help: "Address to listen on (0.0.0.0 in a container).")
    var host = "127.0.0.1"

    @Option(help: "Port for every protocol: HTTP/1.1, h2c and HTTP/2 or HTTP/1.1 over TLS. 0 picks a free port.")
    var port: UInt16 = 9499

    @Option(help: "Event-loop threads (default: the number of cores).")
    var threads: Int?

    @Option(help: "PEM certificate chain for TLS (default: a certificate signed by the emulator's local CA).")
    var tlsCert: String?

    @Option(help: "PEM private key for --tls-cert.")
    var tlsKey: String?

    @Option(help: "Extra host name or address for the generated certificate, and a name browsers may reach the admin API by (repeatable).")
    var tlsHostname: [String] = []

    @Option(help: "Directory for state that survives restarts (the local CA is kept there).")
    var dataDir: String?

    @Option(help: "Largest request body in bytes (larger gets 413).")
    var maxBodyBytes = 1_048_576

    @Option(help: "Largest request header block in bytes (larger gets 431).")
    var maxHeaderBytes = 65_536

    @Option(help: "HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS.")
    var maxConcurrentStreams: UInt32 = 1000

    @Option(help: "Seconds before an idle connection is closed.")
    var idleTimeout: Double = 120

    @Option(help: "Seconds a client has for the TLS handshake and each request header block.")
    var headerTimeout: Double = 10

    @Option(help: "Seconds a client has to send a whole request, body included (slower gets 408).")
    var bodyTimeout: Double = 30

    @Option(help: "Access-log format: text or json.")
    var logFormat: String = "text"

    @Flag(inversion: .prefixedNo, help: "Log one line per request to standard error.")
    var accessLog = true

    @Option(help: "FCM, topic and Instance ID authentication: off (nothing checked), any (a Bearer token is required) or strict (only unexpired tokens from the emulator's own /token).")
    var auth: String = "any"

    @Option(help: "A service-account JSON key file whose account may get tokens from /token; its signature is then checked (repeatable; without any, assertions are not signature-checked).")
    var serviceAccount: [String] = []

    @Option(help: "Seconds an access token from /token lives, on the real clock.")
    var accessTokenLifetime: Int64 = 3600

    @Option(help: "Token mode: lenient (a send to an unknown well-formed token registers the device) or strict (only registered devices exist).")
    var tokens: String = "lenient"

    @Option(help: "Numeric sender id put in payloads as google.c.sender.id (default: derived from the project id).")
    var senderId: String?

    @Option(help: "How long a device may stay offline before FCM deletes its messages: seconds, or a number with s, m, h or d.")
    var offlineLimit: String = "30d"

    @Option(help: "More pending messages than this when a device connects are deleted (FCM's rule).")
    var maxPending = 100

    @Option(help: "Seconds between heartbeat comments on device streams.")
    var heartbeatSeconds = 15

    @Option(help: "Open :stream connections one device may have at once (more get 429).")
    var maxStreamsPerDevice = 10

    @Option(help: "APNs provider tokens: off (nothing checked), any (a well-formed ES256 JWT with kid and iss), strict (signed by an --apns-key, under an hour old, one team per connection, renewed at most every 20 minutes).")
    var apnsAuth: String = "any"

    @Option(help: "An APNs signing key for --apns-auth strict, as KEYID:TEAMID:path/to/AuthKey.p8 (repeatable).")
    var apnsKey: [String] = []

    @Option(help: "The project where an APNs send to an unknown device token registers its device.")
    var apnsProject = "apns"

    @Option(help: "HTTP/2 stream limits of a connection to one of Apple's host names: before its first authenticated request, and after (BEFORE:AFTER).")
    var apnsConcurrentStreams = "1:1000"

    @Option(help: "How long after an uninstall sends to the app's tokens are still accepted (FCM and APNs notice late), for devices without an unregisterAfter of their own: seconds, or a number with s, m, h or d.")
    var unregisterAfter: String = "0"

    @Option(help: "The APNs environment of a push to a host that is not one of Apple's (localhost, an address): development or production.")
    var apnsEnvironment = "development"

    @Option(help: "Rate limits each project starts with (docs/quotas.md): off (none), or google (600000 FCM messages a minute per project, 240 a minute and 5000 an hour to one Android device, 3000 topic subscriptions a second, collapsible messages delayed past a burst of 20 to one every 180 s, and ours: 240 a minute to one Apple device).")
    var quotas = "off"

    @Option(help: "FCM messages (and client errors) a minute per project, or none.")
    var quotaProjectMessagesPerMinute: String?

    @Option(help: "FCM messages a minute to one Android device, or none.")
    var quotaAndroidDevicePerMinute: String?

    @Option(help: "FCM messages an hour to one Android device, or none.")
    var quotaAndroidDevicePerHour: String?

    @Option(help: "Notifications a minute to one Apple device (APNs and FCM together), or none.")
    var quotaAppleDevicePerMinute: String?

    @Option(help: "Topic subscriptions added or removed a second per project, or none.")
    var quotaTopicSubscriptionsPerSecond: String?

    @Option(help: "Collapsible messages to one Android app that go at once before the rest are delayed, or none.")
    var quotaCollapsibleBurst: String?

    @Option(help: "Seconds between delayed collapsible messages once the burst is spent, or none.")
    var quotaCollapsibleRefillSeconds: String?

    @Option(help: "An htpasswd file ($apr1$ or {SHA} hashes: htpasswd -m or -s): the web inbox and the /emulator/ API then need one of its users (HTTP Basic).")
    var uiAuthFile: String?

    @Option(name: .customLong("import"), help: "A state snapshot file to start from (written by --export-on-exit or GET /emulator/v1/state); a missing or unusable file stops the start.")
    var importPath: String?

    @Option(help: "Write the state snapshot to this file on SIGTERM or SIGINT (atomically: a failed write leaves an earlier file whole).")
    var exportOnExit: String?

    @Option(help: "A URL that gets every project's events as JSON POSTs (docs/webhooks.md); http:// or https:// (repeatable).")
    var webhook: [String] = []

    @Option(help: "A PEM CA certificate that https:// webhooks are checked against (default: the system's trust store).")
    var webhookCa: String?

    @Flag(inversion: .prefixedNo, help: "Serve /emulator/v1/debug/tick, numbered events on a timer for trying streaming by hand.")
    var enableDebugRoutes = false

    static let environmentOptions: [EnvironmentOptions.Option] = [
        .init(name: "host"), .init(name: "port"), .init(name: "threads"), .init(name: "tls-cert"), .init(name: "tls-key"),
        .init(name: "tls-hostname"), .init(name: "data-dir"), .init(name: "max-body-bytes"), .init(name: "max-header-bytes"),
        .init(name: "max-concurrent-streams"), .init(name: "idle-timeout"), .init(name: "header-timeout"), .init(name: "body-timeout"),
        .init(name: "log-format"), .init(name: "access-log", isFlag: true), .init(name: "auth"), .init(name: "service-account"), .init(name: "access-token-lifetime"), .init(name: "tokens"),
        .init(name: "sender-id"), .init(name: "offline-limit"), .init(name: "max-pending"), .init(name: "heartbeat-seconds"), .init(name: "max-streams-per-device"),
        .init(name: "apns-auth"), .init(name: "apns-key"), .init(name: "apns-project"), .init(name: "apns-concurrent-streams"),
        .init(name: "apns-environment"), .init(name: "unregister-after"), .init(name: "enable-debug-routes", isFlag: true), .init(name: "import"), .init(name: "export-on-exit"),
        .init(name: "ui-auth-file"), .init(name: "quotas"), .init(name: "quota-project-messages-per-minute"),
        .init(name: "quota-android-device-per-minute"), .init(name: "quota-android-device-per-hour"),
        .init(name: "quota-apple-device-per-minute"), .init(name: "quota-topic-subscriptions-per-second"),
        .init(name: "quota-collapsible-burst"), .init(name: "quota-collapsible-refill-seconds"),
        .init(name: "webhook"), .init(name: "webhook-ca"),
    ]

    func validate() throws {
        guard AccessLogFormat(rawValue: logFormat) != nil else {
            throw ValidationError("--log-format must be text or json")
        }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
        guard AuthMode(rawValue: auth) != nil else { throw ValidationError("--auth must be off, any or strict") }
        guard (1...Self.longestAccessTokenLifetime).contains(accessTokenLifetime) else {
            throw ValidationError("--access-token-lifetime must be 1 to 86400 seconds")
        }
        for file in serviceAccount { _ = try Self.serviceAccount(file) }
        guard TokenMode(rawValue: tokens) != nil else { throw ValidationError("--tokens must be lenient or strict") }
        guard let limit = Self.seconds(offlineLimit), limit <= Self.longestOfflineLimit else {
            throw ValidationError("--offline-limit takes seconds or a number with s, m, h or d, e.g. 30d, up to 36500d")
        }
        if let senderId, senderId.isEmpty || !senderId.allSatisfy(\.isNumber) {
            throw ValidationError("--sender-id must be a number, like the project number Firebase shows")
        }
        guard maxPending >= 0, heartbeatSeconds > 0 else { throw ValidationError("--max-pending and --heartbeat-seconds must be positive") }
        // Both become milliseconds in Int64 arithmetic: bounded, they cannot overflow it.
        guard (1...1000).contains(maxStreamsPerDevice) else { throw ValidationError("--max-streams-per-device must be 1 to 1000") }
        guard heartbeatSeconds <= 86_400 else { throw ValidationError("--heartbeat-seconds must be at most 86400 (a day)") }
        guard APNsAuthMode(rawValue: apnsAuth) != nil else { throw ValidationError("--apns-auth must be off, any or strict") }
        if apnsAuth == "strict" && apnsKey.isEmpty {
            throw ValidationError("--apns-auth strict needs at least one --apns-key KEYID:TEAMID:path/to/AuthKey.p8")
        }
        for key in apnsKey { _ = try Self.providerKey(key) }
        guard ProjectID.isValid(apnsProject) else { throw ValidationError("--apns-project must be a project id (letters, digits, - . : _)") }
        guard let unregister = Self.seconds(unregisterAfter), unregister <= Device.longestUnregisterAfter else {
            throw ValidationError("--unregister-after takes seconds or a number with s, m, h or d, e.g. 10m, up to 36500d")
        }
        guard APNsEnvironment(rawValue: apnsEnvironment) != nil else {
            throw ValidationError("--apns-environment must be development or production")
        }
        guard Self.streamLimits(apnsConcurrentStreams) != nil else {
            throw ValidationError("--apns-concurrent-streams takes BEFORE:AFTER, two numbers from 1 to 2147483647, e.g. 1:1000")
        }
        for (name, value) in [("--idle-timeout", idleTimeout), ("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout)]
        where !(value > 0 && value <= Self.longestTimeout) {
            throw ValidationError("\(name) must be a number of seconds above 0 and at most 86400 (a day)")
        }
        try StateFile.validate(importPath: importPath, exportPath: exportOnExit)
        _ = try quotaLimits()
    }

    /// The limits each project starts with: `--quotas`, then each `--quota-*` option given.
    func quotaLimits() throws -> QuotaLimits {
        var limits: QuotaLimits
        switch quotas {
        case "off": limits = .off
        case "google": limits = .google
        default: throw ValidationError("--quotas must be off or google")
        }
        let given: [(String, String?, WritableKeyPath<QuotaLimits, Int?>)] = [
            ("project-messages-per-minute", quotaProjectMessagesPerMinute, \.projectMessagesPerMinute),
            ("android-device-per-minute", quotaAndroidDevicePerMinute, \.androidDevicePerMinute),
            ("android-device-per-hour", quotaAndroidDevicePerHour, \.androidDevicePerHour),
            ("apple-device-per-minute", quotaAppleDevicePerMinute, \.appleDevicePerMinute),
            ("topic-subscriptions-per-second", quotaTopicSubscriptionsPerSecond, \.topicSubscriptionsPerSecond),
            ("collapsible-burst", quotaCollapsibleBurst, \.collapsibleBurst),
            ("collapsible-refill-seconds", quotaCollapsibleRefillSeconds, \.collapsibleRefillSeconds),
        ]
        for (name, value, keyPath) in given {
            guard let value else { continue }
            if value == "none" {
                limits[keyPath: keyPath] = nil
            } else if let number = Int(value), (1...1_000_000_000).contains(number) {
                limits[keyPath: keyPath] = number
            } else {
                throw ValidationError("--quota-\(name) takes a number from 1 to 1000000000, or none")
            }
        }
        limits.pairCollapsible(burstNamed: quotaCollapsibleBurst != nil, refillNamed: quotaCollapsibleRefillSeconds != nil)
        guard limits.isConsistent else {
            throw ValidationError("--quota-collapsible-burst and --quota-collapsible-refill-seconds go together: both numbers, or both none")
        }
        return limits
    }

    func run() throws {
        // Signals are taken synchronously by this thread (sigwait); loops inherit the blocked mask.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)
        // Each connection holds a descriptor: the usual soft limit of 1024 is too few for a busy stack.
        DescriptorLimit.raiseSoftToHard()

        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.threads = threads ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        configuration.maxBodyBytes = maxBodyBytes
        configuration.maxHeaderBytes = maxHeaderBytes
        configuration.maxConcurrentStreams = maxConcurrentStreams
        configuration.idleTimeoutSeconds = idleTimeout
        configuration.headerTimeoutSeconds = headerTimeout
        configuration.bodyTimeoutSeconds = bodyTimeout
        configuration.accessLog = accessLog ? AccessLogFormat(rawValue: logFormat) : nil

        var caPEM: String?
        var caPath: String?
        if let tlsCert, let tlsKey {
            configuration.tls = try TLSContext(certificatePath: tlsCert, keyPath: tlsKey)
        } else {
            let directory = dataDir ?? Self.defaultDataDirectory
            let authority = try CertificateAuthority(directory: directory, names: Self.certificateNames + tlsHostname)
            configuration.tls = try TLSContext(authority: authority)
            caPEM = authority.caPEM
            caPath = directory + "/ca.pem"
        }
        var settings = EmulatorApp.Settings(caPEM: caPEM)
        settings.auth = AuthMode(rawValue: auth) ?? .any
        settings.oauth.serviceAccounts = try serviceAccount.map(Self.serviceAccount)
        settings.oauth.accessTokenLifetimeSeconds = accessTokenLifetime
        settings.core = PushCoreConfiguration(
            tokenMode: TokenMode(rawValue: tokens) ?? .lenient, offlineLimitSeconds: Self.seconds(offlineLimit) ?? 2_592_000,
            maxPending: maxPending, senderID: senderId)
        settings.core.unregisterAfterSeconds = Self.seconds(unregisterAfter) ?? 0
        settings.core.quotaLimits = try quotaLimits()
        settings.heartbeatSeconds = heartbeatSeconds
        settings.maxStreamsPerDevice = maxStreamsPerDevice
        settings.loops = configuration.threads
        settings.debugRoutes = enableDebugRoutes
        settings.hostNames = tlsHostname
        settings.inboxUsers = try uiAuthFile.map(Self.inboxUsers)
        settings.webhooks = try webhook.map(Self.webhookURL)
        settings.webhookClient = try webhookCa.map(Self.webhookClient)
        settings.apns.auth = APNsAuthMode(rawValue: apnsAuth) ?? .any
        for key in apnsKey {
            let providerKey = try Self.providerKey(key)
            settings.apns.keys[providerKey.keyID] = providerKey
        }
        settings.apns.project = apnsProject
        settings.apns.localEnvironment = APNsEnvironment(rawValue: apnsEnvironment) ?? .development
        let (before, after) = Self.streamLimits(apnsConcurrentStreams) ?? (1, 1000)
        settings.apns.streamsBeforeAuthentication = before
        settings.apns.streamsAfterAuthentication = after
        configuration.interceptsTunnel = { host, port in InterceptedHosts.intercepts(host: host, port: port) }
        configuration.initialConcurrentStreams = { serverName in
            EmulatorApp.isAppleHost(serverName) ? before : nil
        }
        let app = EmulatorApp(settings: settings)
        if let importPath { try StateFile.load(importPath, into: app.core) }
        let server = try EmulatorServer(app: app, configuration: configuration)
        printBanner(port: server.port, caPath: caPath)

        var received: Int32 = 0
        sigwait(&signals, &received)
        print("push-emulator: \(received == SIGINT ? "SIGINT" : "SIGTERM") received, shutting down")
        server.stop()
        if let exportOnExit {
            try StateFile.save(app.core, to: exportOnExit)
            print("push-emulator: state exported to \(exportOnExit)")
        }
        print("push-emulator: stopped")
    }

    /// `KEYID:TEAMID:path` → a key that verifies ES256 signatures with the .p8 file's key.
    static func providerKey(_ text: String) throws -> ProviderKey {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw ValidationError("--apns-key takes KEYID:TEAMID:path/to/AuthKey.p8, got \(text)")
        }
        let pem: String
        do {
            pem = String(decoding: try FileIO.read(parts[2]), as: UTF8.self)
        } catch {
            throw ValidationError("--apns-key \(parts[0]): cannot read \(parts[2]): \(error)")
        }
        do {
            return try APNsSettings.providerKey(keyID: parts[0], teamID: parts[1], pem: pem)
        } catch {
            throw ValidationError("--apns-key \(parts[0]): \(parts[2]) is not a P-256 key in PEM (an AuthKey .p8): \(error)")
        }
    }

    /// A service-account JSON key file → the account, whose key verifies its assertions.
    static func serviceAccount(_ path: String) throws -> ServiceAccount {
        let json: [UInt8]
        do {
            json = try FileIO.read(path)
        } catch {
            throw ValidationError("--service-account: cannot read \(path): \(error)")
        }
        do {
            return try OAuthSettings.serviceAccount(json: json)
        } catch {
            throw ValidationError("--service-account \(path): \(error)")
        }
    }

    static func webhookURL(_ text: String) throws -> HTTPClientURL {
        do {
            return try HTTPClientURL(text)
        } catch {
            throw ValidationError("--webhook: \(error)")
        }
    }

    /// A client for https:// webhooks that trusts the CA in the PEM file at `path`.
    static func webhookClient(_ path: String) throws -> HTTPClient {
        let pem: [UInt8]
        do {
            pem = try FileIO.read(path)
        } catch {
            throw ValidationError("--webhook-ca: cannot read \(path): \(error)")
        }
        do {
            return try HTTPClient(trust: .certificate(pem: String(decoding: pem, as: UTF8.self)))
        } catch {
            throw ValidationError("--webhook-ca \(path): \(error)")
        }
    }

    static func inboxUsers(_ path: String) throws -> HtpasswdUsers {
        let text: [UInt8]
        do {
            text = try FileIO.read(path)
        } catch {
            throw ValidationError("--ui-auth-file: cannot read \(path): \(error)")
        }
        do {
            return try HtpasswdUsers(text: String(decoding: text, as: UTF8.self))
        } catch {
            throw ValidationError("--ui-auth-file \(path): \(error)")
        }
    }

    /// `BEFORE:AFTER` → the two stream limits.
    static func streamLimits(_ text: String) -> (UInt32, UInt32)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let before = UInt32(parts[0]), let after = UInt32(parts[1]),
            (1...UInt32(Int32.max)).contains(before), (1...UInt32(Int32.max)).contains(after)
        else { return nil }
        return (before, after)
    }

    /// `90`, `90s`, `15m`, `12h`, `30d` → seconds.
    static func seconds(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = text.last, let multiplier = units[unit], let value = Int64(text.dropLast()), value >= 0 {
            let (product, overflowed) = value.multipliedReportingOverflow(by: multiplier)
            return overflowed ? nil : product
        }
        return Int64(text).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The longest `--access-token-lifetime`: a day (Google's tokens live an hour).
    static let longestAccessTokenLifetime: Int64 = 86_400

    /// The longest `--idle-timeout` and `--header-timeout`, in seconds: a day.
    static let longestTimeout: Double = 86_400

    /// The longest `--offline-limit`: a hundred years, far past any test, and small enough that
    /// the rule's arithmetic in milliseconds cannot overflow.
    static let longestOfflineLimit: Int64 = 36_500 * 86_400

    /// Where the local CA is kept when no `--data-dir` is given.
    static var defaultDataDirectory: String { "/tmp/push-emulator-\(getuid())" }

    /// Names the generated certificate covers: local ones and, for interception mode, the real services'.
    static let certificateNames = ["localhost", "127.0.0.1", "::1"] + InterceptedHosts.names

    private func printBanner(port: UInt16, caPath: String?) {
        let shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        let base = "\(shown):\(port)"
        var lines = [
            "push-emulator listening on \(host):\(port) (HTTP/1.1, h2c, HTTP/2 and HTTP/1.1 over TLS)",
            "  http://\(base)   https://\(base)",
        ]
        if let caPath {
            lines.append("  CA certificate: \(caPath)  (also GET http://\(base)/emulator/v1/ca.pem)")
        }
        lines.append("  try: curl -s http://\(base)/healthz")
        lines.append("       curl -s --cacert \(caPath ?? "<your CA>") https://localhost:\(port)/healthz")
        print(lines.joined(separator: "\n"))
        fflush(nil)
    }
}
