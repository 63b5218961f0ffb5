// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
/// The layers above the node (the CLI, the API) see only the members of modules they import, so the compiler, not a
/// grep, keeps them from the store and the sync engine.
let above = strict + [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "Caddie",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "caddie", targets: ["caddie"]),
        .executable(name: "caddie-bench", targets: ["caddie-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CAvahi", pkgConfig: "avahi-client", providers: [.apt(["libavahi-client-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // SQLite's process-wide settings, which need a C function of their own (SQLiteSettings.swift).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CaddieCore", swiftSettings: strict),
        .target(name: "CaddieCrypto", dependencies: ["CSodium", "CaddieCore"], swiftSettings: strict),
        .target(
            name: "CaddieStore",
            dependencies: [
                "CaddieCore", "CaddieCrypto",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own functions, for the rows the receive path binds directly (RowInsert.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CSQLite",
            ],
            swiftSettings: strict
        ),
        .target(name: "CaddieWire", dependencies: ["CaddieCore", "CaddieCrypto"], swiftSettings: strict),
        // The codes people pass from one device to another (invites, device codes): printed and read, no I/O.
        .target(name: "CaddieCodes", dependencies: ["CaddieCore", "CaddieCrypto"], swiftSettings: strict),
        .target(
            name: "CaddieSync",
            dependencies: [
                "CaddieCore", "CaddieCrypto", "CaddieWire", "CaddieStore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(name: "CaddieDiscovery", dependencies: ["CAvahi"], swiftSettings: strict),
        .target(name: "CaddieServices", dependencies: ["CaddieCore"], swiftSettings: strict),
        // OpenStreetMap files (GeoJSON, OSM XML) read into course records: pure, no I/O.
        .target(name: "CaddieOSM", dependencies: ["CaddieCore"], swiftSettings: strict),
        .target(
            name: "CaddieNode",
            dependencies: [
                "CaddieCore", "CaddieCrypto", "CaddieStore", "CaddieServices", "CaddieOSM", "CaddieWire", "CaddieSync",
                "CaddieDiscovery", "CaddieCodes", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources/SampleCourses")],
            swiftSettings: strict
        ),
        // The home's certificate authority and the node's server certificates (Debian's libcrypto), and TLS for
        // them (swift-nio-ssl): the only target that imports these.
        .target(
            name: "CaddieTLS",
            dependencies: ["COpenSSL", .product(name: "NIOSSL", package: "swift-nio-ssl")],
            swiftSettings: strict
        ),
        .target(
            name: "CaddieAPI",
            dependencies: [
                "CaddieCore", "CaddieCrypto", "CaddieServices", "CaddieNode", "CQRencode", "CZlib", "CaddieTLS", "CaddieCodes",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The web app's files, compiled into the binary: nothing to install beside it, nothing fetched.
            resources: [
                .embedInCode("Web/api.js"),
                .embedInCode("Web/app.css"),
                .embedInCode("Web/app.js"),
                .embedInCode("Web/blake2b.js"),
                .embedInCode("Web/board.css"),
                .embedInCode("Web/board.html"),
                .embedInCode("Web/board.js"),
                .embedInCode("Web/device.js"),
                .embedInCode("Web/guide.js"),
                .embedInCode("Web/guide-screen.js"),
                .embedInCode("Web/devices-screen.js"),
                .embedInCode("Web/new-game-screen.js"),
                .embedInCode("Web/report-screens.js"),
                .embedInCode("Web/send.js"),
                .embedInCode("Web/card-screen.js"),
                .embedInCode("Web/card-actions.js"),
                .embedInCode("Web/icon.svg"),
                .embedInCode("Web/index.html"),
                .embedInCode("Web/live.js"),
                .embedInCode("Web/local.js"),
                .embedInCode("Web/manifest.webmanifest"),
                .embedInCode("Web/ops.js"),
                .embedInCode("Web/outbox.js"),
                .embedInCode("Web/render.js"),
                .embedInCode("Web/signin.html"),
                .embedInCode("Web/store.js"),
                .embedInCode("Web/sw.js"),
            ],
            swiftSettings: above
        ),
        .executableTarget(
            name: "caddie",
            dependencies: [
                "CaddieCore", "CaddieCrypto", "CaddieServices", "CaddieDiscovery", "CaddieNode", "CaddieAPI", "CaddieTLS",
                "CaddieCodes", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: above
        ),
        .executableTarget(
            name: "caddie-bench",
            dependencies: [
                "CaddieCore", "CaddieCrypto", "CaddieStore", "CaddieWire", "CaddieSync", "CaddieServices", "CaddieNode",
                "CaddieCodes", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "caddie-fuzz",
            // Not the node: the fuzz build (its own, with -sanitize=fuzzer) then leaves out GRDB, SwiftNIO and the rest.
            dependencies: ["CaddieCore", "CaddieCrypto", "CaddieWire", "CaddieServices", "CaddieOSM", "CaddieCodes"],
            swiftSettings: strict
        ),
        .testTarget(name: "CaddieCoreTests", dependencies: ["CaddieCore"], swiftSettings: strict),
        .testTarget(name: "CaddieTLSTests", dependencies: ["CaddieTLS"], exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(
            name: "CaddieOSMTests", dependencies: ["CaddieOSM", "CaddieCore"], exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(name: "CaddieCryptoTests", dependencies: ["CaddieCrypto", "CaddieCore"], swiftSettings: strict),
        .testTarget(
            name: "CaddieStoreTests",
            dependencies: ["CaddieStore", "CaddieNode", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: strict),
        .testTarget(name: "CaddieWireTests", dependencies: ["CaddieWire", "CaddieCore", "CaddieCrypto"], swiftSettings: strict),
        .testTarget(name: "CaddieServicesTests", dependencies: ["CaddieServices"], swiftSettings: strict),
        .testTarget(
            name: "CaddieSyncTests",
            dependencies: [
                "CaddieSync", .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CaddieAPITests",
            dependencies: [
                "CaddieAPI", "CaddieNode", "CaddieCore", "CaddieCodes", .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // Each resource's routes driven through Hummingbird's own test client (`app.test(.router)`).
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CaddieNodeTests",
            dependencies: ["CaddieNode", "CaddieCore", "CaddieCrypto", "CaddieStore", "CaddieServices", "CaddieCodes"],
            swiftSettings: strict),
        .testTarget(name: "CaddieCommandTests", dependencies: ["caddie", "CaddieNode", "CaddieCore"], swiftSettings: strict),
        .testTarget(
            name: "CaddieCLITests",
            dependencies: ["CaddieCore", "CaddieCrypto", "CaddieStore", "CaddieWire", "CaddieNode", "CaddieCodes"],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
    ]
)
