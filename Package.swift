// swift-tools-version:6.0
// Folio: document packages, type declarations and a streaming archive pipeline.
// No outside Swift packages: the toolchain plus system C libraries.
import PackageDescription

let package = Package(
  name: "Folio",
  products: [
    .library(name: "Folio", targets: ["Folio"]),
    .executable(name: "folio", targets: ["folio"]),
  ],
  targets: [
    // MARK: C libraries (module map + shim header, nothing else)
    .systemLibrary(
      name: "CLibArchive",
      pkgConfig: "libarchive",
      providers: [.apt(["libarchive-dev"])]
    ),
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"])]
    ),
    // zlib: streaming inflate (the zip entry reader, gzip) and streaming deflate with a
    // preset dictionary (big files and gzip cut into chunks compressed in parallel).
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    // libdeflate: whole-buffer deflate (zip entries up to the chunk size) and CRC-32.
    .systemLibrary(
      name: "CLibDeflate",
      pkgConfig: "libdeflate",
      providers: [.apt(["libdeflate-dev"])]
    ),

    // libzstd: tar.zst through zstd's own workers, with a job size Folio chooses (libarchive
    // 3.6.2's zstd filter takes a thread count but not a job size, and zstd's default jobs
    // of 8 MiB each held most of a tar.zst pack's memory).
    .systemLibrary(
      name: "CZstd",
      pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"])]
    ),

    // MARK: Layers, bottom up
    // Support for every layer: files and system calls (atomic writes, listings, errno),
    // the blocking-work bridge, JSON string quoting, and the error every module's error is
    // (FolioFailure, with FolioError and SourceLocation). No C library, no document type.
    .target(name: "FolioSystem"),
    // Property lists: value model with source locations, XML/binary/JSON readers and writers.
    .target(name: "PropertyLists", dependencies: ["FolioSystem", "CLibXML2"]),
    // Uniform types: declarations, the type registry and its system types, identification
    // by name and content, the desktop's MIME database, and the diagnostics vocabulary.
    .target(
      name: "UniformTypes", dependencies: ["FolioSystem", "PropertyLists", "CLibXML2"],
      exclude: ["Registry/system-types.tsv"]),
    // Type validation: the CI validator's rules, configuration, baseline, schemas and report
    // renderers (text, JSON, SARIF, GitHub), on top of the registry.
    .target(
      name: "TypeValidation",
      dependencies: ["FolioSystem", "PropertyLists", "UniformTypes", "CLibXML2"]),
    // Progress reporting: Foundation's ProgressManager API (SF-0023) on Linux, with
    // Subprogress, the read-only ProgressReporter and the snapshots and events displays watch.
    .target(name: "ProgressReporting", dependencies: ["FolioSystem"]),
    // Archives: the archive engine. Pack, expand and list zip, tar and compressed tar over
    // libarchive, zlib, libdeflate and zstd, with expansion's safety rules and selection. The
    // package locks live here too: the engine takes them, and their errors are packaging errors.
    .target(
      name: "Archives",
      dependencies: [
        "FolioSystem", "PropertyLists", "UniformTypes", "ProgressReporting", "CLibArchive",
        "CZlib", "CLibDeflate", "CZstd",
      ]),
    // Documents: Apple's document model on Linux. FileWrapper, Document with its readers and
    // writers, document sessions, and the exporters and export plans a session saves through.
    .target(
      name: "Documents",
      dependencies: [
        "FolioSystem", "Archives", "UniformTypes", "PropertyLists", "ProgressReporting",
      ]),
    // The sample notebook format (`com.example.notebook`) and its exporters: one app's format,
    // kept out of the library's core; the command registers its exporters.
    .target(
      name: "Notebooks",
      dependencies: [
        "FolioSystem", "PropertyLists", "UniformTypes", "ProgressReporting", "Archives",
        "Documents",
      ]),
    // The umbrella library other programs import.
    .target(
      name: "Folio",
      dependencies: [
        "FolioSystem", "PropertyLists", "UniformTypes", "TypeValidation", "ProgressReporting",
        "Archives", "Documents", "Notebooks",
      ]),

    // MARK: Command line
    // The command depends on the layers, not the umbrella: they use FoundationEssentials
    // only, and a binary that references any of corelibs Foundation links all of it (with
    // CoreFoundation and ICU), about 5.6 MiB more resident at every start.
    .target(
      name: "FolioCommands",
      dependencies: [
        "FolioSystem", "PropertyLists", "UniformTypes", "TypeValidation", "ProgressReporting",
        "Archives", "Documents", "Notebooks",
      ]),
    .executableTarget(name: "folio", dependencies: ["FolioCommands", "FolioSystem"]),

    // MARK: Tests
    .target(
      name: "FolioTestSupport", dependencies: ["Folio", "FolioSystem", "PropertyLists"],
      path: "Tests/FolioTestSupport"),
    .testTarget(name: "FolioSystemTests", dependencies: ["FolioSystem", "FolioTestSupport"]),
    .testTarget(
      name: "PropertyListsTests",
      dependencies: ["PropertyLists", "FolioSystem", "FolioTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      // TypeValidation for UTType.registerDeclarations, which judges by the validator's rules.
      name: "UniformTypesTests",
      dependencies: [
        "UniformTypes", "TypeValidation", "PropertyLists", "FolioSystem", "FolioTestSupport",
      ]),
    .testTarget(
      name: "ProgressReportingTests", dependencies: ["ProgressReporting", "FolioTestSupport"]),
    .testTarget(
      name: "TypeValidationTests",
      dependencies: [
        "TypeValidation", "UniformTypes", "PropertyLists", "FolioSystem", "FolioTestSupport",
      ],
      exclude: ["Fixtures"]),
    .testTarget(
      // Documents for the FileWrapper tests kept here: a wrapper read from an archive must
      // refuse what expand refuses and keep what it keeps (the hostile corpus, the attribute
      // trees), which live in this target.
      // and TypeValidation to register an app's archive-based type.
      name: "ArchivesTests",
      dependencies: [
        "Archives", "ProgressReporting", "Documents", "TypeValidation", "UniformTypes",
        "FolioSystem", "FolioTestSupport",
      ],
      exclude: ["Fixtures"]),
    // The sample notebook is the document type the document-session and exporter tests use.
    .testTarget(
      name: "DocumentsTests",
      dependencies: [
        "Documents", "Notebooks", "Archives", "UniformTypes", "PropertyLists",
        "ProgressReporting", "FolioSystem", "FolioTestSupport",
      ]),
    .testTarget(
      name: "NotebooksTests",
      dependencies: [
        "Notebooks", "Documents", "Archives", "UniformTypes", "PropertyLists", "FolioTestSupport",
      ]),
    .testTarget(
      name: "FolioCommandsTests",
      // Folio for the NSError-wrapped failures (Cocoa, POSIX) the command must word plainly.
      dependencies: [
        "FolioCommands", "Folio", "Archives", "UniformTypes", "PropertyLists",
        "ProgressReporting", "FolioSystem", "FolioTestSupport",
      ]),
    // The umbrella's own code: the document model's parts on corelibs Foundation.
    .testTarget(name: "FolioTests", dependencies: ["Folio", "FolioTestSupport"]),
    // Apple's document sample code from the seeds, unchanged but for the imports (see
    // SOURCES.md), built against the Folio product; SeedSamplesTests runs it. Its warnings
    // are Apple's (one snippet decodes a value and leaves its use to a comment), so they
    // are silenced for that target alone.
    .target(
      name: "SeedSamples", dependencies: ["Folio"], path: "Tests/SeedSamples",
      exclude: ["SOURCES.md"], swiftSettings: [.unsafeFlags(["-suppress-warnings"])]),
    .testTarget(
      name: "SeedSamplesTests", dependencies: ["SeedSamples", "Folio", "FolioTestSupport"]),
    // Faults, kills, concurrency and scale, against the built `folio` binary. `Shim/` holds the
    // C fault-injection library the tests compile at run time, `Fixtures/` fuzz regressions.
    .testTarget(
      name: "ReliabilityTests", dependencies: ["Archives", "FolioTestSupport"],
      exclude: ["Shim", "Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)

// Every module's `import` is internal unless the file says `public import`, so a
// module that a public signature needs is named as such and nothing else leaks out.
for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
