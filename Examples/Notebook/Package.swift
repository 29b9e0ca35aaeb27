// swift-tools-version:6.0
// An example program using Folio as a library: it depends on the package two folders up
// by path, as a program depends on Folio by URL.
import PackageDescription

let package = Package(
  name: "NotebookExample",
  dependencies: [
    .package(name: "Folio", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "NotebookExample",
      dependencies: [.product(name: "Folio", package: "Folio")]),
    // The README's library example, copied here by scripts/readme-example.sh.
    .executableTarget(
      name: "ReadmeExample",
      dependencies: [.product(name: "Folio", package: "Folio")]),
  ],
  swiftLanguageModes: [.v6]
)
