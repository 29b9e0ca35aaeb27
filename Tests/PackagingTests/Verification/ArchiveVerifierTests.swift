import FolioTestSupport
import Foundation
import Packaging
import Testing

/// `ArchiveVerifier` (issue 33 §2): it reads every entry to its end through the expansion's
/// readers and rules, writing nothing, and compares with a folder.
@Suite struct ArchiveVerifierTests {
  /// Every case `Fixtures/hostile_archives.py` builds, read from the script itself so a new
  /// case is verified without being listed here.
  static let hostileCases: [String] = {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/hostile_archives.py")
    let text = (try? String(contentsOf: script, encoding: .utf8)) ?? ""
    var cases: [String] = []
    for line in text.split(separator: "\n")
    where line.hasPrefix("if case == \"")
      || line.hasPrefix("elif case == \"")
    {
      let name = line.split(separator: "\"")[1]
      cases.append(String(name))
    }
    return cases
  }()

  @Test func theFixtureScriptNamesItsCases() {
    #expect(Self.hostileCases.count > 100)
    #expect(Self.hostileCases.contains("zip-bad-crc"))
  }

  /// The peers that check an archive in this case's format, and whether each found damage.
  ///
  /// A peer's warning is not damage: unzip exits 1 and 7z 1 for a warning (a
  /// self-extractor's prefix), gzip 2 ("trailing garbage ignored"); these archives are
  /// the ones Folio accepts on purpose (see `HostileArchiveTests.acceptances`).
  private func oracleVerdicts(_ name: String, archive: URL) throws -> [String: Bool] {
    // The command, and the lowest status that means damage.
    var commands: [String: ([String], Int32)] = [:]
    if name.hasPrefix("zip") {
      commands["unzip -t"] = (["unzip", "-tqq", archive.path], 2)
      commands["7z t"] = (["7z", "t", "-bd", "-p", archive.path], 2)
    } else if name.hasPrefix("tar") || name.hasPrefix("cpio") || name == "zero-bytes" {
      commands["bsdtar -tf"] = (["bsdtar", "-tf", archive.path], 1)
      if name.hasPrefix("tar-gz") && !name.hasPrefix("tar-gz-xz") {
        commands["gzip -t"] = (["gzip", "-t", archive.path], 1)
      }
    } else {
      commands["7z t"] = (["7z", "t", "-bd", "-p", archive.path], 2)
    }
    var verdicts: [String: Bool] = [:]
    for (label, (command, damage)) in commands where programExists(command[0]) {
      let status = try runProcess(command[0], Array(command.dropFirst())).status
      verdicts[label] = status >= damage && !(label == "gzip -t" && status == 2)
    }
    return verdicts
  }

  /// For every fixture: verify fails exactly when expand refuses, with expand's code, writes
  /// nothing, and fails whenever a peer's test command finds the archive damaged.
  @Test(arguments: hostileCases)
  func verifyFailsExactlyWhereExpandRefusesAndWherePeersFindDamage(_ name: String) async throws {
    try await withTemporaryDirectory("verify-hostile") { folder in
      let outside = folder.appendingPathComponent("outside")
      let archive = try makeHostileArchive(name, in: folder, outside: outside)
      var expandError: PackagingError?
      do {
        _ = try Expander.expandSynchronously(archive, into: folder.appendingPathComponent("dest"))
      } catch let error as PackagingError {
        expandError = error
      }
      try? FileManager.default.removeItem(at: folder.appendingPathComponent("dest"))
      let before = treeListing(folder)
      var verifyError: PackagingError?
      do {
        _ = try ArchiveVerifier.verify(.file(archive))
      } catch let error as PackagingError {
        verifyError = error
      }
      #expect(verifyError?.code == expandError?.code, "verify: \(String(describing: verifyError))")
      #expect(treeListing(folder) == before, "verify wrote something")
      #expect(!FileManager.default.fileExists(atPath: outside.path))
      for (peer, foundDamage) in try oracleVerdicts(name, archive: archive) where foundDamage {
        #expect(verifyError != nil, "\(peer) finds \(name) damaged; verify passed it")
      }
    }
  }

  /// The damaged (not merely hostile) cases: each fails with its integrity code.
  @Test(arguments: [
    ("zip-bad-crc", "corrupt-archive"), ("zip-truncated", "malformed-zip"),
    ("zip-short-data", "corrupt-archive"), ("zip-deflate-ends-early", "corrupt-archive"),
    ("zip-local-size-mismatch", "header-mismatch"), ("zip-overlap", "overlapping-entries"),
    ("tar-bad-checksum", "corrupt-archive"), ("tar-short-data", "corrupt-archive"),
    ("tar-gz-bad-trailer", "corrupt-archive"), ("tar-gz-bad-length", "corrupt-archive"),
    ("tar-gz-truncated", "corrupt-archive"), ("tar-gz-xz-bad-inner-trailer", "corrupt-archive"),
    ("tar-empty", "empty-archive"), ("zero-bytes", "empty-archive"),
  ])
  func damagedArchiveFailsNamingTheDamage(_ name: String, code: String) async throws {
    try await withTemporaryDirectory("verify-damaged") { folder in
      let archive = try makeHostileArchive(name, in: folder)
      let error = #expect(throws: PackagingError.self) {
        _ = try ArchiveVerifier.verify(.file(archive))
      }
      #expect(error?.code.rawValue == code, "\(String(describing: error))")
    }
  }

  // MARK: - Comparison with a folder

  /// A package with a file, a folder, an empty folder and a symbolic link, dated whole seconds.
  private func makePackage(in folder: URL) throws -> URL {
    let package = folder.appendingPathComponent("Doc.pkg")
    let manager = FileManager.default
    try manager.createDirectory(
      at: package.appendingPathComponent("pages/empty"), withIntermediateDirectories: true)
    try Data("first page".utf8).write(to: package.appendingPathComponent("pages/1.txt"))
    try Data("index".utf8).write(to: package.appendingPathComponent("index.txt"))
    try manager.createSymbolicLink(
      atPath: package.appendingPathComponent("current").path, withDestinationPath: "pages/1.txt")
    for file in ["pages/1.txt", "index.txt"] {
      try manager.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)],
        ofItemAtPath: package.appendingPathComponent(file).path)
    }
    return package
  }

  private func pack(_ package: URL, format: ArchiveFormat, in folder: URL) async throws -> URL {
    let archive = folder.appendingPathComponent("Doc." + format.fileExtensions[0])
    _ = try await Packer.pack(package, to: archive, options: PackOptions(format: format))
    return archive
  }

  @Test(arguments: [ArchiveFormat.zip, .tar, .tarGzip, .tarXz, .tarZstd])
  func freshPackMatchesItsPackage(_ format: ArchiveFormat) async throws {
    try await withTemporaryDirectory("verify-match") { folder in
      let package = try makePackage(in: folder)
      let archive = try await pack(package, format: format, in: folder)
      let result = try ArchiveVerifier.verify(.file(archive), against: package)
      #expect(result.differences == [])
      #expect(result.comparedWithFolder)
      #expect(result.fileCount == 2)
      #expect(result.symbolicLinkCount == 1)
      #expect(result.byteCount == 15)
    }
  }

  @Test(arguments: [ArchiveFormat.zip, .tarGzip])
  func everyKindOfChangeIsOneDifference(_ format: ArchiveFormat) async throws {
    try await withTemporaryDirectory("verify-differ") { folder in
      let package = try makePackage(in: folder)
      let archive = try await pack(package, format: format, in: folder)
      let manager = FileManager.default
      // Same size, other bytes, same time: only the bytes tell.
      try Data("first PAGE".utf8).write(to: package.appendingPathComponent("pages/1.txt"))
      try manager.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)],
        ofItemAtPath: package.appendingPathComponent("pages/1.txt").path)
      try manager.setAttributes(
        [.posixPermissions: 0o600, .modificationDate: Date(timeIntervalSince1970: 1_700_000_100)],
        ofItemAtPath: package.appendingPathComponent("index.txt").path)
      try manager.removeItem(at: package.appendingPathComponent("current"))
      try manager.createSymbolicLink(
        atPath: package.appendingPathComponent("current").path, withDestinationPath: "index.txt")
      try manager.removeItem(at: package.appendingPathComponent("pages/empty"))
      try Data().write(to: package.appendingPathComponent("pages/empty"))
      try Data("new\n".utf8).write(to: package.appendingPathComponent("new\tline.txt"))
      let result = try ArchiveVerifier.verify(.file(archive), against: package)
      let found = result.differences.map { "\($0.path.string ?? "?") \($0.kind.rawValue)" }
      #expect(
        found == [
          "current link-target", "index.txt modification-time", "index.txt permissions",
          "new\tline.txt missing-from-archive", "pages/1.txt contents", "pages/empty kind",
        ])
      // Printed names are escaped: a tab never splits a line.
      let printed = result.differences.map(\.description)
      #expect(printed.contains { $0.hasPrefix("new\\tline.txt: only in the folder") }, "\(printed)")
      #expect(printed.contains("index.txt: permissions differ (archive 0644, folder 0600)"))
    }
  }

  @Test func anEntryTheFolderLacksIsReported() async throws {
    try await withTemporaryDirectory("verify-missing") { folder in
      let package = try makePackage(in: folder)
      let archive = try await pack(package, format: .zip, in: folder)
      try FileManager.default.removeItem(at: package.appendingPathComponent("pages"))
      let result = try ArchiveVerifier.verify(.file(archive), against: package)
      #expect(
        result.differences.map(\.kind) == [
          .missingFromFolder, .missingFromFolder, .missingFromFolder,
        ])
      #expect(result.differences.map { $0.path.string } == ["pages", "pages/1.txt", "pages/empty"])
    }
  }

  /// bsdtar's archive of the same tree (no top folder) compares equal too: the comparison
  /// is of trees, not of Folio's own output.
  @Test(.enabled(if: programExists("bsdtar")), arguments: ["pax", "zip"])
  func aPeersArchiveOfTheTreeMatches(_ format: String) async throws {
    try await withTemporaryDirectory("verify-peer") { folder in
      let package = try makePackage(in: folder)
      let archive = folder.appendingPathComponent("peer." + (format == "pax" ? "tar" : format))
      let made = try runProcess(
        "bsdtar", ["--format", format, "-cf", archive.path, "-C", package.path, "."])
      #expect(made.status == 0, "\(made.errorText)")
      let result = try ArchiveVerifier.verify(.file(archive), against: package)
      #expect(result.differences == [])
    }
  }

  @Test func aFolderThatIsNotThereIsAnErrorNamingIt() async throws {
    try await withTemporaryDirectory("verify-nofolder") { folder in
      let package = try makePackage(in: folder)
      let archive = try await pack(package, format: .zip, in: folder)
      let missing = folder.appendingPathComponent("Nowhere")
      let error = #expect(throws: PackagingError.self) {
        _ = try ArchiveVerifier.verify(.file(archive), against: missing)
      }
      #expect(error?.message.contains(missing.path) == true)
    }
  }
}
