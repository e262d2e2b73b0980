// swift-tools-version:6.0
import Foundation
import PackageDescription

// The journal's package, by path: this example lives inside its repository. A path dependency's
// identity is its folder's name, whatever the checkout is called, so it is computed here.
let journalRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
    .standardizedFileURL
let journalPackage = journalRoot.lastPathComponent

let package = Package(
    name: "ThreeDSService",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "ThreeDSService",
            dependencies: [.product(name: "JournalKit", package: journalPackage)])
    ],
    swiftLanguageModes: [.v6]
)
