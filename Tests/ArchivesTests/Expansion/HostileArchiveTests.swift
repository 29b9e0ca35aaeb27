import Archives
import FolioSystem
import FolioTestSupport
import Foundation
import Testing

/// Builds one archive of `Fixtures/hostile_archives.py` in a folder.
func makeHostileArchive(_ name: String, in folder: URL, outside: URL? = nil) throws -> URL {
  let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/hostile_archives.py")
  let archive = folder.appendingPathComponent(name)
  var arguments = [script.path, name, archive.path]
  if let outside { arguments.append(outside.path) }
  let result = try runProcess("python3", arguments)
  #expect(result.status == 0, "hostile_archives.py \(name): \(result.errorText)")
  return archive
}

/// Every file and folder under `root` with its type, size and mode: what a test compares
/// before and after an expansion to prove nothing else was touched.
func treeListing(_ root: URL) -> [String] {
  var lines: [String] = []
  let walker = FileManager.default.enumerator(atPath: root.path)
  while let relative = walker?.nextObject() as? String {
    var info = stat()
    lstat(root.appendingPathComponent(relative).path, &info)
    lines.append("\(relative) \(String(info.st_mode, radix: 8)) \(info.st_size) \(info.st_ino)")
  }
  return lines.sorted()
}

@Suite struct HostileArchiveTests {
  /// One refusal: the archive case, the code it must fail with, and a policy change, if any.
  struct Refusal: CustomTestStringConvertible, Sendable {
    let archive: String
    let code: PackagingError.Code
    var policy: ExpansionPolicy = .default
    var testDescription: String { "\(archive) → \(code)" }
  }

  static let refusals: [Refusal] = [
    Refusal(archive: "zip-absolute", code: .absolutePath),
    Refusal(archive: "zip-dotdot", code: .parentComponent),
    Refusal(archive: "zip-dotdot-inner", code: .parentComponent),
    Refusal(archive: "zip-backslash", code: .backslashInName),
    Refusal(archive: "zip-backslash-windows-dotdot", code: .parentComponent),
    Refusal(archive: "zip-drive-letter", code: .absolutePath),
    Refusal(archive: "zip-nul", code: .nulInName),
    Refusal(archive: "zip-symlink-escape", code: .linkOutsideDestination),
    Refusal(archive: "zip-symlink-absolute", code: .linkOutsideDestination),
    Refusal(archive: "zip-write-through-symlink", code: .writeThroughSymlink),
    Refusal(archive: "zip-device", code: .specialFileEntry),
    Refusal(archive: "zip-fifo", code: .specialFileEntry),
    Refusal(archive: "zip-duplicate", code: .duplicateEntry),
    Refusal(archive: "zip-case-collision", code: .nameCollision),
    Refusal(archive: "zip-normalization-collision", code: .nameCollision),
    Refusal(archive: "zip-name-too-long", code: .nameTooLong),
    Refusal(archive: "zip-overlap", code: .overlappingEntries),
    Refusal(archive: "zip-local-name-mismatch", code: .headerMismatch),
    Refusal(archive: "zip-local-size-mismatch", code: .headerMismatch),
    Refusal(archive: "zip-bad-crc", code: .corruptArchive),
    Refusal(archive: "zip-encrypted", code: .encryptedEntry),
    Refusal(archive: "zip-ratio-bomb", code: .compressionRatio),
    Refusal(archive: "zip-truncated", code: .malformedZip),
    Refusal(archive: "zip-directory-out-of-bounds", code: .malformedZip),
    Refusal(archive: "zip-entry-count-lie", code: .malformedZip),
    Refusal(archive: "zip-local-offset-out-of-bounds", code: .malformedZip),
    Refusal(archive: "zip-extra-overrun", code: .malformedZip),
    // One zip reader: the end records and the directory must agree, and entries are read
    // only where the checked directory puts them.
    Refusal(archive: "zip-end-count-too-low", code: .malformedZip),
    Refusal(archive: "zip-end-count-too-high", code: .malformedZip),
    Refusal(archive: "zip-end-decoy-in-comment", code: .malformedZip),
    Refusal(archive: "zip-end-decoy-closing", code: .malformedZip),
    Refusal(archive: "zip64-locator-zero-disks", code: .malformedZip),
    Refusal(archive: "zip64-count-disagrees", code: .malformedZip),
    Refusal(archive: "zip64-offset-disagrees", code: .malformedZip),
    Refusal(archive: "zip64-record-missing", code: .malformedZip),
    Refusal(archive: "zip-size-lie-bomb", code: .corruptArchive),
    Refusal(archive: "zip-descriptor-size-lie-bomb", code: .corruptArchive),
    Refusal(archive: "zip-short-data", code: .corruptArchive),
    Refusal(archive: "zip-deflate-ends-early", code: .corruptArchive),
    Refusal(archive: "zip-stored-sizes-differ", code: .malformedZip),
    Refusal(archive: "zip-deflate64", code: .unsupportedCompression),
    Refusal(archive: "zip-ppmd", code: .unsupportedCompression),
    Refusal(archive: "zip-aes", code: .encryptedEntry),
    Refusal(archive: "zip-same-local-header", code: .headerMismatch),
    Refusal(archive: "zip-many", code: .tooManyEntries, policy: ExpansionPolicy(maxEntryCount: 3)),
    Refusal(
      archive: "zip-large", code: .expansionTooLarge, policy: ExpansionPolicy(maxTotalBytes: 4_000)),
    Refusal(archive: "tar-absolute", code: .absolutePath),
    Refusal(archive: "tar-dotdot", code: .parentComponent),
    Refusal(archive: "tar-symlink-escape", code: .linkOutsideDestination),
    Refusal(archive: "tar-symlink-absolute", code: .linkOutsideDestination),
    Refusal(archive: "tar-symlink-chain", code: .linkOutsideDestination),
    Refusal(archive: "tar-symlink-late-redirect", code: .linkOutsideDestination),
    Refusal(archive: "tar-write-through-symlink", code: .writeThroughSymlink),
    Refusal(archive: "tar-hardlink-outside", code: .linkOutsideDestination),
    Refusal(archive: "tar-hardlink-absolute", code: .linkOutsideDestination),
    Refusal(archive: "tar-hardlink-missing", code: .hardLinkTargetMissing),
    Refusal(archive: "tar-hardlink-to-symlink", code: .hardLinkTargetMissing),
    Refusal(archive: "tar-device", code: .specialFileEntry),
    Refusal(archive: "tar-block-device", code: .specialFileEntry),
    Refusal(archive: "tar-fifo", code: .specialFileEntry),
    Refusal(archive: "tar-duplicate", code: .duplicateEntry),
    Refusal(archive: "tar-case-collision", code: .nameCollision),
    Refusal(archive: "tar-path-conflict", code: .pathConflict),
    Refusal(archive: "tar-bad-checksum", code: .corruptArchive),
    Refusal(archive: "tar-huge-declared", code: .expansionTooLarge),
    Refusal(archive: "tar-short-data", code: .corruptArchive),
    Refusal(archive: "tar-gz-bad-trailer", code: .corruptArchive),
    Refusal(archive: "tar-gz-bad-length", code: .corruptArchive),
    Refusal(archive: "tar-gz-truncated", code: .corruptArchive),
    Refusal(archive: "tar-gz-garbage", code: .corruptArchive),
    Refusal(
      archive: "tar-gz-bomb", code: .compressionRatio,
      policy: ExpansionPolicy(maxCompressionRatio: 100)),
    Refusal(archive: "tar-gz-multi-member-bad-second", code: .corruptArchive),
    Refusal(archive: "tar-gz-trailing-too-much", code: .corruptArchive),
    Refusal(archive: "tar-gz-xz-bad-inner-trailer", code: .corruptArchive),
    Refusal(archive: "tar-pax-nul-path", code: .nulInName),
    Refusal(archive: "tar-pax-nul-linkpath", code: .nulInName),
    Refusal(archive: "tar-gnu-longname-nul", code: .nulInName),
    Refusal(archive: "tar-empty", code: .emptyArchive),
    Refusal(archive: "zero-bytes", code: .emptyArchive),
  ]

  @Test(arguments: refusals)
  func refusedArchiveLeavesNothingBehind(_ refusal: Refusal) async throws {
    try await withTemporaryDirectory("hostile") { folder in
      let outside = folder.appendingPathComponent("outside")
      let archive = try makeHostileArchive(refusal.archive, in: folder, outside: outside)
      let destination = folder.appendingPathComponent("dest")
      let before = treeListing(folder)
      let error = #expect(throws: PackagingError.self) {
        _ = try Expander.expandSynchronously(archive, into: destination, policy: refusal.policy)
      }
      #expect(error?.code == refusal.code, "\(error.map(String.init(describing:)) ?? "no error")")
      #expect(treeListing(folder) == before, "the expansion left something behind")
      #expect(!FileManager.default.fileExists(atPath: destination.path))
      #expect(!FileManager.default.fileExists(atPath: outside.path))
    }
  }

  /// Valid archives of unusual shape, and what they must expand to (path and bytes).
  static let acceptances: [(String, [String: String])] = [
    ("zip64-valid", ["a.txt": String(repeating: "a", count: 100), "b.txt": "b"]),
    ("zip-orphan-local-bomb", ["small.txt": "small"]),
    ("zip-sfx", ["a.txt": "self-extracting"]),
    ("zip-sfx-adjusted", ["a.txt": "self-extracting"]),
    // Bytes after the end record that hold no signature: unzip, Python and bsdtar read the
    // directory the end record names, and so does Folio, with a warning.
    ("zip-end-trailing-bytes", ["a.txt": "real"]),
    (
      "tar-gz-multi-member",
      [
        "a.txt": String(repeating: "first ", count: 3000),
        "b.txt": String(repeating: "second ", count: 3000),
      ]
    ),
    ("tar-gz-zero-padding", ["a.txt": "padded"]),
    // gzip ignores bytes that start no member ("trailing garbage ignored"), so does bsdtar.
    ("tar-gz-trailing-junk", ["a.txt": "junk follows"]),
    ("tar-gz-gz", ["a.txt": String(repeating: "nested ", count: 500)]),
    ("tar-gz-xz", ["a.txt": String(repeating: "nested ", count: 500)]),
    ("tar-xz-gz", ["a.txt": String(repeating: "nested ", count: 500)]),
    ("tar-gz-bz2", ["a.txt": String(repeating: "nested ", count: 500)]),
    ("tar-zst-gz", ["a.txt": String(repeating: "nested ", count: 500)]),
    ("tar-gz-gz-gz", ["a.txt": String(repeating: "nested ", count: 500)]),
    // Every frame sequence `zstd -d` reads (the script checks with `zstd -t`).
    ("tar-zst-skippable-first", ["a.txt": String(repeating: "frames ", count: 500)]),
    ("tar-zst-frames", ["a.txt": String(repeating: "frames ", count: 500)]),
    ("tar-zst-skippable-between", ["a.txt": String(repeating: "frames ", count: 500)]),
  ]

  @Test(arguments: acceptances.map(\.0))
  func unusualButValidArchivesExpand(_ name: String) async throws {
    let expected = try #require(Self.acceptances.first { $0.0 == name }?.1)
    try await withTemporaryDirectory("hostile-valid") { folder in
      let archive = try makeHostileArchive(name, in: folder)
      let destination = folder.appendingPathComponent("dest")
      _ = try Expander.expandSynchronously(archive, into: destination)
      var files: [String: String] = [:]
      let walker = FileManager.default.enumerator(atPath: destination.path)
      while let relative = walker?.nextObject() as? String {
        var info = stat()
        lstat(destination.appendingPathComponent(relative).path, &info)
        guard info.st_mode & S_IFMT == S_IFREG else { continue }
        files[relative] = try String(
          contentsOf: destination.appendingPathComponent(relative), encoding: .utf8)
      }
      #expect(files == expected)
    }
  }

  @Test(arguments: ["zip-dotdot", "tar-symlink-late-redirect", "tar-gz-bad-trailer", "zip-bad-crc"])
  func refusedArchiveLeavesExistingDestinationUntouched(_ name: String) async throws {
    try await withTemporaryDirectory("hostile-existing") { folder in
      let archive = try makeHostileArchive(name, in: folder)
      let destination = folder.appendingPathComponent("dest")
      try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
      try Data("keep me".utf8).write(to: destination.appendingPathComponent("keep.txt"))
      let before = treeListing(folder)
      for mode in [ReplacePolicy.replace, .update] {
        #expect(throws: PackagingError.self) {
          _ = try Expander.expandSynchronously(archive, into: destination, replacePolicy: mode)
        }
        #expect(treeListing(folder) == before)
      }
      let kept = try String(
        contentsOf: destination.appendingPathComponent("keep.txt"), encoding: .utf8)
      #expect(kept == "keep me")
    }
  }

  @Test func refusalMessagesEscapeControlCharactersAndShortenLongNames() async throws {
    try await withTemporaryDirectory("hostile-names") { folder in
      let archive = try makeHostileArchive("zip-name-too-long", in: folder)
      let error = #expect(throws: PackagingError.self) {
        _ = try Expander.expandSynchronously(archive, into: folder.appendingPathComponent("dest"))
      }
      let message = error?.message ?? ""
      #expect(message.contains("…"))
      #expect(message.count < 300)

      let nul = try makeHostileArchive("zip-nul", in: folder)
      let nulError = #expect(throws: PackagingError.self) {
        _ = try Expander.expandSynchronously(nul, into: folder.appendingPathComponent("dest"))
      }
      #expect(nulError?.message.contains(#"'good\u{0}txt'"#) == true)
    }
  }

  @Test func specialBitsAndGroupWriteAreNeverRestored() async throws {
    for name in ["zip-setuid", "tar-setuid"] {
      try await withTemporaryDirectory("hostile-modes") { folder in
        let archive = try makeHostileArchive(name, in: folder)
        let destination = folder.appendingPathComponent("dest")
        _ = try Expander.expandSynchronously(archive, into: destination)
        var info = stat()
        #expect(lstat(destination.appendingPathComponent("tool").path, &info) == 0)
        #expect(
          info.st_mode & 0o7777 == 0o755,
          "\(name): tool is \(String(info.st_mode & 0o7777, radix: 8))")
        #expect(lstat(destination.appendingPathComponent("shared").path, &info) == 0)
        #expect(
          info.st_mode & 0o7777 == 0o755,
          "\(name): shared is \(String(info.st_mode & 0o7777, radix: 8))")
      }
    }
  }

  @Test func appleDoubleEntriesAreSkippedAndListed() async throws {
    try await withTemporaryDirectory("hostile-macos") { folder in
      let archive = try makeHostileArchive("zip-macos", in: folder)
      let destination = folder.appendingPathComponent("Note")
      let result = try Expander.expandSynchronously(archive, into: destination)
      #expect(result.skippedEntries.map(\.string) == ["__MACOSX/Note/._a.txt", "Note/._a.txt"])
      #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path) == ["a.txt"])
    }
  }

  @Test func collisionsMayBeAllowed() async throws {
    try await withTemporaryDirectory("hostile-collisions") { folder in
      let archive = try makeHostileArchive("zip-case-collision", in: folder)
      let destination = folder.appendingPathComponent("dest")
      let result = try Expander.expandSynchronously(
        archive, into: destination, policy: ExpansionPolicy(allowsNameCollisions: true))
      #expect(result.fileCount == 2)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: destination.path).sorted()
          == ["README.txt", "Readme.txt"])
    }
  }

  @Test func rootEntryAndDotComponentsAreHarmless() async throws {
    try await withTemporaryDirectory("hostile-dot") { folder in
      let archive = try makeHostileArchive("tar-dot-root", in: folder)
      let destination = folder.appendingPathComponent("dest")
      let result = try Expander.expandSynchronously(archive, into: destination)
      #expect(result.fileCount == 2)
      #expect(
        FileManager.default.fileExists(
          atPath: destination.appendingPathComponent("Note/a.txt").path))
      #expect(
        FileManager.default.fileExists(atPath: destination.appendingPathComponent("b.txt").path))
    }
  }
}
