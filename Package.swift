// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "push-emulator",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "push-emulator", targets: ["push-emulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CNGHTTP2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"]), .brew(["nghttp2"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        // The process's allocator: glibc's grows a thread's arena a page at a time (a system
        // call per few queued messages) and costs more per allocation; see docs/performance.md.
        .systemLibrary(
            name: "CTCMalloc",
            pkgConfig: "libtcmalloc_minimal",
            providers: [.apt(["libgoogle-perftools-dev"]), .brew(["gperftools"])]
        ),
        .target(name: "CShims", dependencies: ["COpenSSL"]),
        // JSON and the byte-level code under it: the parser, the serializer, the word-at-a-time
        // byte tests, strings made in their inline form. Pure Swift, no domain rules.
        .target(name: "ByteCoding"),
        .target(
            name: "HTTPServer",
            dependencies: ["ByteCoding", "CNGHTTP2", "COpenSSL", "CShims"],
            // Every nghttp2 callback mutates stream and connection state held in classes, and each
            // such access paid a runtime exclusivity check (about 1,200 instructions per request).
            // Debug builds, which the tests run, keep the checks.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        .target(name: "PushCore", dependencies: ["ByteCoding"]),
        .target(name: "PushAPI", dependencies: ["ByteCoding", "HTTPServer", "PushCore"]),
        .executableTarget(
            name: "push-emulator",
            dependencies: [
                "PushAPI", "PushCore", "HTTPServer", "CTCMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ByteCodingTests", dependencies: ["ByteCoding"]),
        .testTarget(name: "PushCoreTests", dependencies: ["ByteCoding", "PushCore"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
        .testTarget(name: "PushAPITests", dependencies: ["ByteCoding", "PushAPI"]),
    ],
    swiftLanguageModes: [.v6]
)
