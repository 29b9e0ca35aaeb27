import FolioTestSupport
import Foundation
import Testing

@testable import Archives

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

/// `verify --against`: an archive compared with the tree it was packed from, and with
/// that tree changed in every way the comparison names.
@Suite struct ArchiveComparisonTests {
  private func makeTree(in folder: URL) throws -> URL {
    let package = folder.appendingPathComponent("Pkg")
    let sub = package.appendingPathComponent("sub")
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    try Data("hello\n".utf8).write(to: package.appendingPathComponent("a.txt"))
    try Data("same size".utf8).write(to: sub.appendingPathComponent("b.txt"))
    try FileManager.default.createSymbolicLink(
      atPath: package.appendingPathComponent("link").path, withDestinationPath: "a.txt")
    return package
  }

  @Test(arguments: [ArchiveFormat.zip, .tar, .tarZstd])
  func anArchiveMatchesItsTreeAndNamesEveryChange(format: ArchiveFormat) async throws {
    try await withTemporaryDirectory("verify-against") { folder in
      let package = try makeTree(in: folder)
      let archive = folder.appendingPathComponent("Pkg." + format.fileExtension)
      _ = try await Packer.pack(package, to: archive)
      #expect(try ArchiveVerifier.compare(.file(archive), against: package) == [])

      // Rewritten with their old times, so only the bytes differ.
      for (name, text) in [("a.txt", "hello!\n"), ("sub/b.txt", "SAME size")] {
        let file = package.appendingPathComponent(name)
        let time = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: time!], ofItemAtPath: file.path)
      }
      try FileManager.default.removeItem(at: package.appendingPathComponent("link"))
      try FileManager.default.createSymbolicLink(
        atPath: package.appendingPathComponent("link").path, withDestinationPath: "sub")
      try Data().write(to: package.appendingPathComponent("new.txt"))
      chmod(package.appendingPathComponent("sub").path, 0o700)
      let differences = try ArchiveVerifier.compare(.file(archive), against: package)
      let summary = differences.map { "\($0.path): \($0.message.prefix(20))" }
      #expect(
        summary == [
          "a.txt: size 6 in the archiv", "link: links to 'a.txt' in ",
          "new.txt: in the folder, not i", "sub: mode 755 in the arch",
          "sub/b.txt: the bytes differ",
        ], "\(differences)")
    }
  }
}
