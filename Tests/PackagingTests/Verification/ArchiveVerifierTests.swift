import FolioTestSupport
import Foundation
import Testing

@testable import Packaging

/// `verify` against the hostile fixtures: every archive `expand` refuses fails with the
/// same code, every valid one passes, and nothing is written.
@Suite struct ArchiveVerifierTests {
  @Test(arguments: HostileArchiveTests.refusals)
  func everyRefusedArchiveFailsWithExpandsCode(_ refusal: HostileArchiveTests.Refusal) async throws
  {
    try await withTemporaryDirectory("verify-hostile") { folder in
      let outside = folder.appendingPathComponent("outside")
      let archive = try makeHostileArchive(refusal.archive, in: folder, outside: outside)
      let before = treeListing(folder)
      #expect {
        _ = try ArchiveVerifier.verify(.file(archive), policy: refusal.policy)
      } throws: { error in
        (error as? PackagingError)?.code == refusal.code
      }
      #expect(treeListing(folder) == before)
    }
  }

  @Test(arguments: HostileArchiveTests.acceptances.map(\.0))
  func everyValidArchivePasses(_ name: String) async throws {
    try await withTemporaryDirectory("verify-valid") { folder in
      let archive = try makeHostileArchive(name, in: folder)
      let result = try ArchiveVerifier.verify(.file(archive))
      #expect(result.fileCount >= 1)
    }
  }

  /// Folio's own archives of every format verify; a byte flipped in a file's data, or the
  /// archive cut short, fails as `unzip -t`, `gzip -t` and bsdtar also fail it.
  @Test(arguments: ArchiveFormat.allCases)
  func folioArchivesVerifyAndDamagedCopiesFail(format: ArchiveFormat) async throws {
    try await withTemporaryDirectory("verify-folio") { folder in
      let package = folder.appendingPathComponent("Pkg")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      let text = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) })
      try text.write(to: package.appendingPathComponent("a.bin"))
      let archive = folder.appendingPathComponent("Pkg." + format.fileExtension)
      var options = PackOptions()
      options.compression = .deflate
      _ = try await Packer.pack(package, to: archive, options: options)
      let result = try ArchiveVerifier.verify(.file(archive))
      #expect(result.fileCount == 1)
      #expect(result.byteCount == 20_000)

      let bytes = try Data(contentsOf: archive)
      let cut = folder.appendingPathComponent("cut." + format.fileExtension)
      try bytes.prefix(bytes.count * 2 / 3).write(to: cut)
      #expect(throws: PackagingError.self) { try ArchiveVerifier.verify(.file(cut)) }
      let peer = try runProcess("bsdtar", ["-tf", cut.path])
      let peerRead = try runProcess("bsdtar", ["-xOf", cut.path])
      #expect(peer.status != 0 || peerRead.status != 0, "bsdtar reads the cut archive whole")
    }
  }
}
