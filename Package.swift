// swift-tools-version:6.0
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility")
]
// Executables only: `unsafeFlags` would stop the library targets from being used as a
// dependency, and the libraries' hot paths are `@inlinable` or `package` where it matters
// (docs/decisions/no-unsafe-flags-in-libraries.md).
let optimized: [SwiftSetting] =
    upcoming + [
        .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))
    ]

let package = Package(
    name: "journal",
    products: [
        .executable(name: "journal", targets: ["journal"]),
        .library(name: "EventStore", targets: ["EventStore"]),
        .library(name: "Evidence", targets: ["Evidence"]),
        .library(name: "Domain", targets: ["Domain"]),
        .library(name: "Projections", targets: ["Projections"]),
        .library(name: "JournalKit", targets: ["JournalKit"])
    ],
    targets: [
        // System libraries (Debian packages; `make deps` installs them).
        // SQLite and libcrypto are linked statically from the -dev packages' archives (their
        // module maps; docs/decisions/static-sqlite-and-libcrypto.md), so no pkgConfig: it
        // would add the shared libraries' -l flags.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // Linked statically (module.modulemap): LZ4_attach_dictionary is not in the shared library.
        .systemLibrary(name: "CLZ4", path: "Sources/CLZ4", providers: [.apt(["liblz4-dev"])]),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", providers: [.apt(["libssl-dev"])]),
        // Headers only: libpq is opened with dlopen on first use (EventStore/Postgres/LibPQ.swift,
        // docs/decisions/lazy-system-libraries.md), so no pkgConfig (it would add -lpq).
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", providers: [.apt(["libpq-dev"])]),
        // glibc's posix_spawn_file_actions_addclosefrom_np (header only, part of libc).
        .systemLibrary(name: "CSpawn", path: "Sources/CSpawn"),
        // The HTTP/1.1 server of `journal serve`. Headers only, like CLibPQ: opened with dlopen
        // when serve starts (JournalHTTP/LibMicroHTTPD.swift).
        .systemLibrary(
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),

        // Our C targets: the SQLite VFS shim that writes a WAL commit's frames in one write
        // (docs/decisions/wal-write-coalescing.md), and the signal handler that removes a new
        // journal's files when SIGINT or SIGTERM ends a load (docs/decisions/interrupted-loads.md).
        .target(name: "CJournalVFS", dependencies: ["CSQLite"], path: "Sources/CJournalVFS"),
        .target(name: "CInterruptCleanup", path: "Sources/CInterruptCleanup"),

        // Shared value types: JSON that keeps what it was given, timestamps, identifiers.
        .target(name: "JournalCore", dependencies: ["CInterruptCleanup"], swiftSettings: upcoming),
        // The evidence formats and their verifiers (Merkle proofs, signed notes and checkpoints,
        // bundles, exports, tlog tiles): no SQLite, libpq or LZ4 (scripts/check-evidence-deps.py).
        .target(name: "Evidence", dependencies: ["JournalCore", "COpenSSL"], swiftSettings: upcoming),
        // The append-only store (SQLite by default, PostgreSQL for scale-out).
        .target(
            name: "EventStore",
            dependencies: ["Evidence", "JournalCore", "CSQLite", "CJournalVFS", "CLZ4", "COpenSSL", "CLibPQ"],
            swiftSettings: upcoming),
        // Test support, not API: a private PostgreSQL server in a temporary folder, for the
        // tests and the PostgreSQL benchmark.
        .target(
            name: "JournalTestSupport", dependencies: ["EventStore", "JournalCore", "CSpawn"],
            swiftSettings: upcoming),
        // Pure decide/evolve aggregates and the event catalog: no I/O.
        .target(name: "Domain", dependencies: ["JournalCore"], swiftSettings: upcoming),
        // The seeded workload generator, driving the domain's commands.
        .target(name: "Simulator", dependencies: ["Domain", "EventStore", "JournalCore"], swiftSettings: upcoming),
        // Read models with checkpoints.
        .target(
            name: "Projections", dependencies: ["EventStore", "Domain", "JournalCore"],
            swiftSettings: upcoming),
        // The application layer: the validated append and import (domain rules, sensitive-data
        // guard), replay and record/against, export, find, restore, publish, simulate, verify,
        // the demo's tour, and what commands share (errors with exit statuses, journal access,
        // output). No HTTP, no HTML, no parser.
        .target(
            name: "JournalApp",
            dependencies: ["EventStore", "Domain", "Projections", "Simulator", "JournalCore", "COpenSSL"],
            swiftSettings: upcoming),
        // The front door for embedders: `Journal`, a public façade over the application layer.
        .target(
            name: "JournalKit", dependencies: ["JournalApp", "EventStore", "Domain", "Projections", "JournalCore"],
            swiftSettings: upcoming),
        // The HTML report and dashboard pages.
        .target(
            name: "JournalReport",
            dependencies: ["JournalApp", "EventStore", "Domain", "Projections", "JournalCore"],
            swiftSettings: upcoming),
        // The HTTP layer: `journal serve`'s API and the witness server, over libmicrohttpd.
        .target(
            name: "JournalHTTP",
            dependencies: [
                "JournalApp", "JournalReport", "EventStore", "Projections", "JournalCore", "CMicroHTTPD"
            ],
            swiftSettings: upcoming),
        // The command line: the argument parser, the command table and one file per command.
        .target(
            name: "JournalCommandLine",
            dependencies: [
                "JournalApp", "JournalHTTP", "JournalReport", "EventStore", "Domain", "Simulator",
                "Projections", "JournalCore"
            ],
            path: "Sources/cli", swiftSettings: upcoming),
        // The `journal` executable: `main` only.
        .executableTarget(
            name: "journal", dependencies: ["JournalCommandLine", "JournalApp", "EventStore", "JournalCore"],
            path: "Sources/journal", swiftSettings: upcoming),
        .executableTarget(
            name: "bench",
            dependencies: ["EventStore", "Domain", "Simulator", "Projections", "JournalCore", "CSQLite"],
            path: "Sources/bench", swiftSettings: optimized),
        // One of several concurrent writer processes (PostgreSQL concurrency test, benchmark).
        .executableTarget(
            name: "journal-pg-writer", dependencies: ["EventStore", "JournalCore", "JournalTestSupport"],
            path: "Sources/journal-pg-writer", swiftSettings: optimized),
        // A separate program the reliability tests start, SIGKILL and race against `journal`.
        .executableTarget(
            name: "reliability-harness", dependencies: ["EventStore", "JournalCore"],
            path: "tools/reliability-harness", swiftSettings: upcoming),

        // Helper executable for the store's multi-process tests and quick timings.
        .executableTarget(
            name: "store-stress", dependencies: ["EventStore", "JournalCore"],
            path: "Sources/store-stress", swiftSettings: optimized),

        .testTarget(name: "JournalCoreTests", dependencies: ["JournalCore"], swiftSettings: upcoming),
        // The Evidence library alone: a bundle the journal wrote, checked with `import Evidence` only.
        .testTarget(name: "EvidenceTests", dependencies: ["Evidence"], exclude: ["Fixtures"], swiftSettings: upcoming),
        .testTarget(
            name: "EventStoreTests",
            dependencies: ["EventStore", "JournalCore", "JournalTestSupport", "CSQLite", "store-stress"],
            exclude: ["Fixtures"], swiftSettings: upcoming),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "Simulator", "JournalCore"], swiftSettings: upcoming),
        .testTarget(
            name: "SimulatorTests", dependencies: ["Simulator", "Domain", "EventStore", "JournalCore"],
            swiftSettings: upcoming),
        .testTarget(
            name: "ProjectionsTests",
            dependencies: ["Projections", "EventStore", "Domain", "Simulator", "JournalCore", "JournalTestSupport"],
            swiftSettings: upcoming),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "journal", "JournalCommandLine", "JournalApp", "JournalHTTP", "JournalReport", "EventStore",
                "Projections", "JournalCore", "JournalTestSupport", "JournalKit", "Domain"
            ],
            swiftSettings: upcoming),
        // Crashes, concurrent writers, hostile input, faults, tampering (`make soak`: long form).
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "journal", "JournalApp", "reliability-harness", "EventStore", "JournalCore", "Simulator"
            ],
            swiftSettings: upcoming)
    ],
    swiftLanguageModes: [.v6]
)
