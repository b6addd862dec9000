// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "fitiq-tui",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "fitiq-tui", targets: ["fitiq-tui"]),
        .executable(name: "fitiq-dev-server", targets: ["fitiq-dev-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        // Hummingbird's own networking; named for one socket option of the development server's listener.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // The interface's languages: .po catalogs, plural rules, placeholders, language choice, decimal
        // separators. Pure; the standard library only. Every module that says a sentence imports it.
        .target(name: "FitIQLocalization"),
        // The catalogs of po/, compiled in as text (Plugins/EmbedCatalogs), each read at its first use.
        .target(name: "FitIQCatalogs", dependencies: ["FitIQLocalization"], plugins: [.plugin(name: "EmbedCatalogs")]),
        .plugin(name: "EmbedCatalogs", capability: .buildTool()),
        // Domain, validation, ports, use cases and the sync engine. FoundationEssentials only.
        .target(name: "FitIQCore"),
        // The words of the interface: what the core's values say, in English and the catalogs, for the
        // editor, plain mode and the commands alike. The core returns values; this module words them.
        .target(name: "FitIQWords", dependencies: ["FitIQCore", "FitIQLocalization"]),
        // The JSON cache on disk: adapters for the store ports.
        .target(name: "FitIQCache", dependencies: ["FitIQCore", "FitIQWords", "FitIQLocalization", "CFileSync"]),
        .systemLibrary(name: "CFileSync"),
        // What unit tests need, without the development server: in-memory implementations of every port,
        // a manual clock, child processes, the built programs and the repository's tools.
        .target(name: "FitIQTestBasics", dependencies: ["FitIQCore"]),
        // The test harness: the development server (in this process or as the built executable) with
        // everything above. Only test targets depend on these two.
        .target(
            name: "FitIQTestSupport",
            dependencies: [
                "FitIQCore", "FitIQTestBasics", "FitIQDevServer", .product(name: "Logging", package: "swift-log"),
            ]),
        // HTTP sync layer: adapters for the remote ports, on libcurl (proxies and CA files from the
        // environment, as every Linux tool reads them).
        .target(
            name: "FitIQHTTP",
            dependencies: ["FitIQCore", "FitIQLocalization", "CCurl", .product(name: "Logging", package: "swift-log")]),
        // libcurl's types and constants (libcurl4-openssl-dev to build); FitIQHTTP opens libcurl4 with dlopen at
        // its first request, and calls its variadic functions through typed wrappers.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libxml2's types and function pointer types, for the streaming health export reader. Nothing
        // links libxml2: FitIQImport opens it with dlopen when an import starts (the Debian package
        // libxml2 at run time; no -dev package to build).
        .systemLibrary(name: "CLibXML2"),
        // zlib, to inflate the export member of export.zip and check its CRC-32.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CMalloc"),
        // Every other app's export format, Apple Health's included: a file per app (Apps/), the list of
        // formats, and one walk of files, zips and folders that hands each entry to the format that
        // recognises its content. Readers are pure and streaming; FitIQCore keeps the readings and the merge.
        .target(
            name: "FitIQImport",
            dependencies: ["FitIQCore", "FitIQWords", "FitIQLocalization", "CLibXML2", "CZlib"]),
        // `fitiq-tui`, the one program: the editor and every command, wired once (the composition root).
        .executableTarget(
            name: "fitiq-tui",
            dependencies: [
                "FitIQCore", "FitIQWords", "FitIQCache", "FitIQHTTP", "FitIQImport", "FitIQTUI", "FitIQEditor",
                "NcursesTerminal",
                "CMalloc", "FitIQVersion", "FitIQLocalization", "FitIQCatalogs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `fitiqVersion`, the release number of VERSION (between releases, with the commits since) at build
        // time (scripts/version.sh). A module of its own, so a new version compiles it alone.
        .target(name: "FitIQVersion", plugins: [.plugin(name: "BuildVersion")]),
        .plugin(name: "BuildVersion", capability: .buildTool()),
        // Terminal UI, pure: state → update → render into a cell buffer. No ncurses.
        .target(name: "FitIQTUI", dependencies: ["FitIQCore", "FitIQWords", "FitIQLocalization"]),
        // The editor loop: owns the terminal (through FitIQTUI's `TerminalScreen`), runs the use cases as
        // tasks and feeds their results back as events.
        .target(name: "FitIQEditor", dependencies: ["FitIQCore", "FitIQWords", "FitIQTUI", "FitIQLocalization"]),
        // ncursesw (wide-character API) for the terminal adapter.
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncursesw5-dev"])]),
        // Paints cell buffers with ncurses and turns keys and resizes into events; one thread only.
        .target(name: "NcursesTerminal", dependencies: ["FitIQTUI", "FitIQLocalization", "CNcurses"]),
        // Child process for the cache's crash test: saves in a loop until it is killed.
        .executableTarget(name: "fitiq-cache-crash-child", dependencies: ["FitIQCore", "FitIQCache"]),

        // Development backend speaking the FitIQ contract on loopback.
        .target(
            name: "FitIQDevServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "fitiq-dev-server",
            dependencies: [
                "FitIQDevServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Fixtures are read from the source tree (#filePath), not bundled.
        .testTarget(name: "FitIQLocalizationTests", dependencies: ["FitIQLocalization", "FitIQCatalogs"]),
        .testTarget(
            name: "FitIQCoreTests", dependencies: ["FitIQCore", "FitIQWords", "FitIQTestBasics"]),
        .testTarget(
            name: "FitIQCacheTests", dependencies: ["FitIQCore", "FitIQCache", "FitIQTestBasics"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "FitIQHTTPTests",
            dependencies: [
                "FitIQCore", "FitIQCache", "FitIQHTTP", "FitIQDevServer", "FitIQTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Runs the built `fitiq-tui` as a process against the development server.
        .testTarget(
            name: "FitIQCLITests",
            dependencies: [
                "FitIQCore", "FitIQCache", "FitIQDevServer", "FitIQTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "FitIQCore", "FitIQDevServer", "FitIQTestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "FitIQTUITests",
            dependencies: ["FitIQCore", "FitIQTUI", "FitIQTestBasics", "FitIQLocalization", "FitIQCatalogs"]),
        .testTarget(
            name: "FitIQEditorTests",
            dependencies: [
                "FitIQCore", "FitIQTUI", "FitIQEditor", "FitIQTestBasics", "FitIQLocalization", "FitIQCatalogs",
            ]),
        .testTarget(name: "NcursesTerminalTests", dependencies: ["NcursesTerminal", "FitIQTUI"]),
        .testTarget(
            name: "FitIQImportTests", dependencies: ["FitIQCore", "FitIQWords", "FitIQImport", "FitIQTestBasics"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "FitIQDevServerTests",
            dependencies: [
                "FitIQDevServer", "FitIQHTTP", "FitIQTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
