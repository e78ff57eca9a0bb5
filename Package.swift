// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "ObjectGraph",
    products: [
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .library(name: "ObjectGraphTesting", targets: ["ObjectGraphTesting"]),
        .library(name: "LedgerKit", targets: ["LedgerKit"]),
        .executable(name: "ledger", targets: ["ledger"]),
        .executable(name: "objectgraph", targets: ["objectgraph"]),
        .executable(name: "objectgraph-bench", targets: ["objectgraph-bench"]),
        .executable(name: "objectgraph-crash-writer", targets: ["objectgraph-crash-writer"]),
    ],
    targets: [
        .target(name: "ObjectGraph", swiftSettings: strict),
        .target(name: "ObjectGraphTesting", dependencies: ["ObjectGraph"], swiftSettings: strict),
        .target(
            name: "LedgerKit", dependencies: ["ObjectGraph", "ObjectGraphTesting", "CLISupport"],
            swiftSettings: strict),
        .target(name: "CLISupport", dependencies: ["ObjectGraph"], swiftSettings: strict),
        .executableTarget(
            name: "ledger", dependencies: ["LedgerKit", "CLISupport"], swiftSettings: strict),
        .executableTarget(
            name: "objectgraph", dependencies: ["ObjectGraph", "ObjectGraphTesting", "CLISupport"],
            swiftSettings: strict),
        .executableTarget(
            name: "objectgraph-crash-writer",
            dependencies: ["ObjectGraph", "ObjectGraphTesting", "CLISupport"],
            swiftSettings: strict),
        .executableTarget(
            name: "objectgraph-bench",
            dependencies: ["ObjectGraph", "ObjectGraphTesting", "LedgerKit", "CLISupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ObjectGraphTests", dependencies: ["ObjectGraph", "ObjectGraphTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "ObjectGraphTestingTests", dependencies: ["ObjectGraph", "ObjectGraphTesting"],
            swiftSettings: strict),
        // Fixtures as package resources, as the README shows them (Bundle.module on Linux).
        .testTarget(
            name: "FixtureResourceTests", dependencies: ["ObjectGraph", "ObjectGraphTesting"],
            resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(
            name: "LedgerKitTests",
            dependencies: ["LedgerKit", "ObjectGraph", "ObjectGraphTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "LedgerCLITests",
            dependencies: ["LedgerKit", "CLISupport", "ObjectGraphTesting", "ledger"],
            swiftSettings: strict),
        .testTarget(name: "CLISupportTests", dependencies: ["CLISupport"], swiftSettings: strict),
        .testTarget(
            name: "ObjectGraphToolTests", dependencies: ["ObjectGraph"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
