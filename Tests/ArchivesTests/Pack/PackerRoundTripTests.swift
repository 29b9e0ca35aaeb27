import FolioTestSupport
import Foundation
import Testing

@testable import Archives

/// Packs with Folio, extracts with bsdtar, and compares the trees entry by entry.
@Suite struct PackerRoundTripTests {
  static let formats = ArchiveFormat.allCases

  @Test(arguments: formats)
  func mixedPackageSurvivesARoundTrip(format: ArchiveFormat) async throws {
    let corpus = try BenchmarkCorpus.small()
    let package = corpus.appendingPathComponent("mixed.examplenotebook")
    try await withTemporaryDirectory("pack-roundtrip") { folder in
      let archive = folder.appendingPathComponent("mixed." + format.fileExtension)
      let result = try await Packer.pack(package, to: archive)
      #expect(result.format == format)
      let expanded = folder.appendingPathComponent("expanded")
      try FileManager.default.createDirectory(at: expanded, withIntermediateDirectories: true)
      let extraction = try runProcess("bsdtar", ["-xpf", archive.path, "-C", expanded.path])
      #expect(extraction.status == 0, "bsdtar: \(extraction.errorText)")
      let top = try FileManager.default.contentsOfDirectory(atPath: expanded.path)
      #expect(top == ["mixed.examplenotebook"])
      let original = try TreeManifest(of: package)
      let copy = try TreeManifest(of: expanded.appendingPathComponent("mixed.examplenotebook"))
      #expect(copy.differences(from: original) == [])
      #expect(result.fileCount == original.entries.values.filter { $0.kind == "file" }.count)
      #expect(result.symbolicLinkCount == 2)
    }
  }

  @Test(arguments: formats)
  func mixedPackageSurvivesFolioExpand(format: ArchiveFormat) async throws {
    let package = try BenchmarkCorpus.small().appendingPathComponent("mixed.examplenotebook")
    try await withTemporaryDirectory("pack-expand") { folder in
      let archive = folder.appendingPathComponent("mixed." + format.fileExtension)
      _ = try await Packer.pack(package, to: archive)
      let restored = folder.appendingPathComponent("mixed.examplenotebook")
      _ = try await Expander.expand(archive, into: restored, progress: .untracked())
      let original = try TreeManifest(of: package)
      let copy = try TreeManifest(of: restored)
      #expect(copy.differences(from: original) == [])
    }
  }
}
