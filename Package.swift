// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ListService",
    // Apple's systems: what the client's Observation needs (the server itself is for Linux).
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "HTTPLite", targets: ["HTTPLite"]),
        .executable(name: "server", targets: ["server"]),
        .library(name: "ListServiceClient", type: .static, targets: ["ListServiceClient"]),
        .executable(name: "listservice-watch", targets: ["listservice-watch"]),
    ],
    targets: [
        // C shim: exposes epoll, eventfd, accept4 and memmem, which Glibc's Swift module does not.
        .target(name: "CSystem"),
        // zlib for gzip content coding and CRC-32 checksums (Debian's zlib1g-dev), found by pkg-config.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libpq, PostgreSQL's C client (Debian's libpq-dev), found by pkg-config.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // OpenSSL's libcrypto (Debian's libssl-dev): token signatures (HMAC, RSA, ECDSA).
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // C shim over ICU (Debian's libicu-dev): text sorted by the client's locale's collation,
        // and its index letters. A C target, not a system library: its header must not bring
        // ICU's types, which clash with those of the ICU inside Foundation.
        .target(name: "CICU", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),
        // What HTTPLite and the core both need and neither owns: a lock ThreadSanitizer
        // understands, JSON string literals, lines on stderr.
        .target(name: "Basics", dependencies: ["CSystem"]),
        .target(name: "HTTPLite", dependencies: ["CSystem", "CZlib", "Basics"]),
        // The core: collections, lists, view-models, durability. It knows nothing of HTTP.
        .target(name: "ListService", dependencies: ["CSystem", "CZlib", "CICU", "Basics"]),
        // Who is asking: bearer tokens (JWT) verified against a JWKS key set with libcrypto.
        .target(name: "ListServiceAuth", dependencies: ["ListService", "CCrypto", "Basics"]),
        // PostgreSQL as the store of record (issue 15, in progress): connection and schema.
        .target(name: "ListServicePostgres", dependencies: ["ListService", "CLibPQ", "Basics"]),
        // The HTTP binding: routes, request -> criteria, outcomes -> statuses. openapi.yaml (through
        // a symlink to the file at the top) and the web front end's files (Web/) are compiled in.
        .target(
            name: "ListServiceHTTP", dependencies: ["HTTPLite", "ListService", "ListServiceAuth", "Basics"],
            resources: [.embedInCode("openapi.yaml"), .embedInCode("Web")]),
        .executableTarget(
            name: "server",
            dependencies: ["HTTPLite", "ListService", "ListServiceAuth", "ListServiceHTTP", "ListServicePostgres", "Basics"]),
        // The Swift client for apps: typed lists, live lists with one observable row per item,
        // writes. Foundation (URLSession) and Observation only: no server module.
        .target(name: "ListServiceClient"),
        .executableTarget(name: "listservice-watch", dependencies: ["ListServiceClient"]),
        // Benchmarks: never a dependency of the library.
        .executableTarget(name: "write-cost", dependencies: ["ListService"], path: "benchmarks/WriteCost"),
        .executableTarget(name: "live-load", dependencies: ["CSystem"], path: "benchmarks/LiveLoad"),
        // libFuzzer targets (scripts/fuzz.sh builds them with -DFUZZING); a stub otherwise.
        .executableTarget(name: "fuzz", dependencies: ["HTTPLite", "ListService", "ListServiceHTTP", "Basics"], path: "Fuzz/Sources"),
        // One test target per module; a helper another target needs too is a symbolic link to
        // its one file (Support/).
        .testTarget(name: "HTTPLiteTests", dependencies: ["HTTPLite", "Basics"]),
        .testTarget(name: "ListServiceTests", dependencies: ["ListService", "Basics"]),
        // Tokens minted with OpenSSL in the tests, verified as the service does.
        .testTarget(name: "ListServiceAuthTests", dependencies: ["ListServiceAuth", "ListService", "CCrypto", "Basics"]),
        .testTarget(
            name: "ListServiceHTTPTests",
            dependencies: ["ListService", "ListServiceHTTP", "ListServiceAuth", "HTTPLite", "Basics", "CZlib"]),
        // Against a PostgreSQL of the tests' own (the storage conformance suite runs here: it
        // needs all three storages).
        .testTarget(
            name: "ListServicePostgresTests",
            dependencies: ["ListService", "ListServiceHTTP", "ListServicePostgres", "HTTPLite", "server", "Basics"]),
        // The Swift client against the real server process, and listservice-watch run as one.
        .testTarget(name: "ListServiceClientTests", dependencies: ["ListServiceClient", "server", "listservice-watch", "Basics"]),
        // The executable: its options unit-tested, its binary run as a process.
        .testTarget(name: "ServerProcessTests", dependencies: ["server", "ListService", "ListServiceAuth", "ListServiceHTTP", "Basics"]),
    ],
    swiftLanguageModes: [.v6]
)
