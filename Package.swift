// swift-tools-version:6.0
import PackageDescription

// Linux only: the event loops use epoll (see README, "Supported platforms").

// AddressSanitizer and ThreadSanitizer bring their own allocator, so a sanitizer build
// (`make sanitize` sets PUSH_EMULATOR_SANITIZER) links glibc's malloc instead of tcmalloc.
let sanitizer = Context.environment["PUSH_EMULATOR_SANITIZER"] ?? ""
let linksTCMalloc = sanitizer.isEmpty

let package = Package(
    name: "push-emulator",
    products: [
        .executable(name: "push-emulator", targets: ["push-emulator"]),
        // The emulator in a Swift backend's own tests (docs/testing.md, "Swift").
        .library(name: "PushEmulatorTesting", targets: ["PushEmulatorTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CNGHTTP2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // The process's allocator: glibc's grows a thread's arena a page at a time (a system
        // call per few queued messages) and costs more per allocation; see docs/performance.md.
        .systemLibrary(
            name: "CTCMalloc",
            pkgConfig: "libtcmalloc_minimal",
            providers: [.apt(["libgoogle-perftools-dev"])]
        ),
        .target(name: "CShims", dependencies: ["COpenSSL"]),
        // The one lock type, a glibc mutex (Sources/Locking/Locked.swift says why not Mutex).
        .target(name: "Locking"),
        // JSON and the byte-level code under it: the parser, the serializer, the word-at-a-time
        // byte tests, strings made in their inline form. Pure Swift, no domain rules.
        .target(name: "ByteCoding"),
        .target(
            name: "HTTPServer",
            dependencies: [
                "ByteCoding", "CNGHTTP2", "COpenSSL", "CShims", "Locking",
                // The access log's API (docs/ARCHITECTURE.md): a small package without dependencies.
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // ES256 (APNs provider tokens) and RS256 (service-account assertions) keys and signatures
        // over OpenSSL: the C types stay inside.
        .target(name: "Signatures", dependencies: ["ByteCoding", "COpenSSL"]),
        .target(name: "PushCore", dependencies: ["ByteCoding", "Locking"]),
        .target(
            name: "PushAPI",
            dependencies: [
                "ByteCoding", "HTTPServer", "Locking", "PushCore", "Signatures",
            ]
        ),
        .target(name: "PushEmulatorTesting", dependencies: ["ByteCoding", "HTTPServer", "Locking", "PushAPI", "PushCore"]),
        .executableTarget(
            name: "push-emulator",
            dependencies: [
                "PushAPI", "PushCore", "HTTPServer", "Signatures",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ] + (linksTCMalloc ? ["CTCMalloc"] : [])
        ),
        .testTarget(name: "ByteCodingTests", dependencies: ["ByteCoding"]),
        .testTarget(name: "PushCoreTests", dependencies: ["ByteCoding", "PushCore"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
        // Also differential tests of PushCore's SHA-256 and HMAC against OpenSSL's.
        .testTarget(name: "SignaturesTests", dependencies: ["ByteCoding", "COpenSSL", "PushCore", "Signatures"]),
        .testTarget(name: "PushAPITests", dependencies: ["ByteCoding", "PushAPI", "Signatures"]),
        // Only the library's public API, as a backend's tests would use it.
        .testTarget(name: "PushEmulatorTestingTests", dependencies: ["PushEmulatorTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
