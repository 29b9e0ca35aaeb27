import FolioTestSupport
import Foundation
import Testing

/// Issue 10's classes of attack, each with several hostile archives built at test time,
/// expanded by the built `folio` as a user would run it: every one must exit 1 with its
/// rule's code, write nothing anywhere in the sandbox (the destination absent, or an
/// existing one unchanged), and stay under the documented peak memory, bombs included.
@Suite("Hostile expansions")
struct HostileExpansionTests {
  /// The peak resident memory an expansion may reach on any of these archives, in KiB.
  ///
  /// That is Folio's own ~26 MiB plus the largest decompression window a default tool setting
  /// asks for (`xz -9`: 64 MiB). See docs/RELIABILITY.md.
  static let memoryBoundKiB = 96 << 10

  /// One hostile archive and the refusal it must meet.
  struct Refusal: CustomTestStringConvertible, Sendable {
    /// The generator's case.
    let archive: String
    /// The rule's stable code, printed in brackets after the message.
    let code: String
    /// The attack class (issue 10's item, or issue 11's section).
    let attack: String
    /// Options added to `folio expand`.
    var options: [String] = []
    var testDescription: String { "\(attack): \(archive) → \(code)" }
  }

  static let refusals: [Refusal] = [
    // 1. Links judged against the folder the entries land in, after unwrapping.
    Refusal(archive: "zip-unwrap-link-sibling", code: "link-outside-destination", attack: "10.1"),
    Refusal(archive: "zip-unwrap-link-folder", code: "link-outside-destination", attack: "10.1"),
    Refusal(
      archive: "zip-unwrap-link-climbs-back", code: "link-outside-destination", attack: "10.1"),
    Refusal(archive: "tar-unwrap-link-sibling", code: "link-outside-destination", attack: "10.1"),
    Refusal(archive: "tar-unwrap-link-folder", code: "link-outside-destination", attack: "10.1"),
    Refusal(
      archive: "tar-unwrap-link-through-link", code: "link-outside-destination", attack: "10.1"),
    // 4. One zip reader: records that disagree are refused; lies stop at the declared size.
    Refusal(archive: "zip-end-count-too-low", code: "malformed-zip", attack: "10.4"),
    Refusal(archive: "zip-end-decoy-in-comment", code: "malformed-zip", attack: "10.4"),
    Refusal(archive: "zip-end-decoy-closing", code: "malformed-zip", attack: "10.4"),
    Refusal(archive: "zip64-locator-zero-disks", code: "malformed-zip", attack: "10.4"),
    Refusal(archive: "zip64-count-disagrees", code: "malformed-zip", attack: "10.4"),
    Refusal(archive: "zip64-offset-disagrees", code: "malformed-zip", attack: "10.4"),
    Refusal(archive: "zip-size-lie-bomb", code: "corrupt-archive", attack: "10.4"),
    Refusal(archive: "zip-descriptor-size-lie-bomb", code: "corrupt-archive", attack: "10.4"),
    Refusal(archive: "zip-same-local-header", code: "header-mismatch", attack: "10.4"),
    Refusal(archive: "zip-overlap", code: "overlapping-entries", attack: "10.4"),
    Refusal(archive: "zip-deflate64", code: "unsupported-compression", attack: "10.4"),
    // 5. The ratio budget for every format.
    Refusal(archive: "zip-ratio-bomb", code: "compression-ratio", attack: "10.5"),
    Refusal(archive: "zip-bzip2-bomb", code: "compression-ratio", attack: "10.5"),
    Refusal(archive: "zip-gz-bomb", code: "compression-ratio", attack: "10.5"),
    Refusal(archive: "7z-lzma-bomb", code: "compression-ratio", attack: "10.5"),
    Refusal(archive: "tar-xz-bomb", code: "compression-ratio", attack: "10.5"),
    Refusal(archive: "tar-zst-bomb", code: "compression-ratio", attack: "10.5"),
    Refusal(archive: "tar-bz2-bomb", code: "compression-ratio", attack: "10.5"),
    Refusal(archive: "cpio-gz-bomb", code: "compression-ratio", attack: "10.5"),
    Refusal(
      archive: "iso-overlapping-extents", code: "compression-ratio", attack: "10.5",
      options: ["--max-ratio", "100"]),
    // 10. Nested compression: each layer's own checks, at its layer.
    Refusal(archive: "tar-gz-xz-bad-inner-trailer", code: "corrupt-archive", attack: "10.10"),
    Refusal(archive: "tar-gz-multi-member-bad-second", code: "corrupt-archive", attack: "11.3"),
    // 11 §3: a name whose recorded length disagrees with what reaches the file system.
    Refusal(archive: "tar-pax-nul-path", code: "nul-in-name", attack: "11.3"),
    Refusal(archive: "tar-pax-nul-linkpath", code: "nul-in-name", attack: "11.3"),
    Refusal(archive: "tar-gnu-longname-nul", code: "nul-in-name", attack: "11.3"),
  ]

  @Test(arguments: refusals)
  func refusedWithItsCodeAndNothingWritten(_ refusal: Refusal) async throws {
    try await withTemporaryDirectory("hostile-e2e") { folder in
      let sandbox = try HostileSandbox(folder)
      try HostileArchiveBuilder.build(
        refusal.archive, at: sandbox.archive, outside: sandbox.outside)
      // Once into a fresh destination, once replacing an existing one.
      for replacing in [false, true] {
        if replacing {
          try FileManager.default.createDirectory(
            at: sandbox.destination, withIntermediateDirectories: false)
          try Data("mine".utf8).write(to: sandbox.destination.appendingPathComponent("mine.txt"))
        }
        let before = sandbox.snapshot()
        let result = try ChildProcess.run(
          FolioBinary.url.path,
          ["expand", sandbox.archive.path, "-o", sandbox.destination.path, "--quiet"]
            + (replacing ? ["--force"] : []) + refusal.options)
        let label = "\(refusal.archive)\(replacing ? " --force" : "")"
        #expect(result.status == 1, "\(label): \(result.errorText)")
        #expect(result.errorText.contains("[\(refusal.code)]"), "\(label): \(result.errorText)")
        let after = sandbox.snapshot()
        #expect(after == before, "\(label) changed the sandbox: \(Self.changes(before, after))")
        #expect(
          result.peakMemoryKiB < Self.memoryBoundKiB,
          "\(label): peak memory \(result.peakMemoryKiB) KiB")
      }
    }
  }

  /// Unusual but valid archives of the same classes: they expand, every link stays inside.
  static let acceptances: [(archive: String, options: [String])] = [
    ("zip-unwrap-link-inside", []),
    ("zip-unwrap-link-sibling", ["--keep-top-folder"]),
    ("tar-unwrap-link-folder", ["--keep-top-folder"]),
    ("tar-unwrap-hardlink", []),
    ("zip-orphan-local-bomb", []),
    ("zip-sfx", []),
    ("zip64-valid", []),
    ("tar-gz-multi-member", []),
    ("tar-gz-gz", []),
    ("tar-gz-xz", []),
    ("tar-zst-gz", []),
    ("7z-small", []),
    ("iso-small", []),
  ]

  @Test(arguments: acceptances.map { $0.archive + " " + $0.options.joined(separator: " ") })
  func validArchivesExpandWithEveryLinkInside(_ label: String) async throws {
    let archive = String(label.split(separator: " ")[0])
    let options = try #require(
      Self.acceptances.first { $0.archive + " " + $0.options.joined(separator: " ") == label }?
        .options)
    try await withTemporaryDirectory("hostile-e2e-valid") { folder in
      let sandbox = try HostileSandbox(folder)
      try HostileArchiveBuilder.build(archive, at: sandbox.archive, outside: sandbox.outside)
      let result = try ChildProcess.run(
        FolioBinary.url.path,
        ["expand", sandbox.archive.path, "-o", sandbox.destination.path, "--quiet"] + options)
      #expect(result.status == 0, "\(label): \(result.errorText)")
      #expect(
        sandbox.linksLeavingDestination().isEmpty, "\(label): \(sandbox.linksLeavingDestination())")
      #expect(result.peakMemoryKiB < Self.memoryBoundKiB, "\(label): \(result.peakMemoryKiB) KiB")
      let outside = try FileManager.default.contentsOfDirectory(atPath: sandbox.outside.path)
      #expect(outside == ["keep.txt"])
    }
  }

  @Test func orphanLocalBombIsNeverRead() async throws {
    try await withTemporaryDirectory("hostile-e2e-orphan") { folder in
      let sandbox = try HostileSandbox(folder)
      try HostileArchiveBuilder.build(
        "zip-orphan-local-bomb", at: sandbox.archive, outside: sandbox.outside)
      let result = try ChildProcess.run(
        FolioBinary.url.path, ["expand", sandbox.archive.path, "-o", sandbox.destination.path])
      #expect(result.status == 0, "\(result.errorText)")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: sandbox.destination.path) == [
          "small.txt"
        ])
      #expect(result.outputText.contains("expanded 1 file (5 B)"), "\(result.outputText)")
    }
  }

  /// `folio expand -` and `folio list -` from a pipe: a tar streams, a zip is copied to an
  /// unnamed temporary file (nothing named is left anywhere), and the limits hold.
  @Test(arguments: ["tar-gz-multi-member", "zip64-valid", "7z-small", "tar-gz-xz"])
  func standardInputFromAPipe(_ name: String) async throws {
    try await withTemporaryDirectory("hostile-e2e-stdin") { folder in
      let sandbox = try HostileSandbox(folder)
      try HostileArchiveBuilder.build(name, at: sandbox.archive, outside: sandbox.outside)
      let folio = FolioBinary.url.path
      let listed = try ChildProcess.run(
        "/bin/sh", ["-c", "cat '\(sandbox.archive.path)' | '\(folio)' list --names -"])
      let direct = try ChildProcess.run(folio, ["list", "--names", sandbox.archive.path])
      #expect(listed.status == 0, "\(name): \(listed.errorText)")
      #expect(listed.outputText == direct.outputText)
      let expanded = try ChildProcess.run(
        "/bin/sh",
        [
          "-c",
          "cat '\(sandbox.archive.path)' | '\(folio)' expand - -o '\(sandbox.destination.path)' --quiet",
        ])
      #expect(expanded.status == 0, "\(name): \(expanded.errorText)")
      let reference = folder.appendingPathComponent("reference")
      #expect(
        try ChildProcess.run(
          folio, ["expand", sandbox.archive.path, "-o", reference.path, "--quiet"]
        ).status == 0)
      let differences = TreeSnapshot.take(sandbox.destination).contentDifferences(
        from: TreeSnapshot.take(reference))
      // The root folder's own time is when each expansion ran.
      #expect(differences.filter { !$0.isEmpty }.isEmpty, "\(name): \(differences)")
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
        !$0.hasSuffix(".folio-lock")
      }.sorted()
      #expect(names == ["archive.data", "dest", "outside", "reference"], "\(names)")
    }
  }

  @Test func zipBombOnAPipeIsRefusedWhileItIsCopied() async throws {
    try await withTemporaryDirectory("hostile-e2e-stdin-bomb") { folder in
      let sandbox = try HostileSandbox(folder)
      try HostileArchiveBuilder.build("zip-gz-bomb", at: sandbox.archive, outside: sandbox.outside)
      let before = sandbox.snapshot()
      let result = try ChildProcess.run(
        "/bin/sh",
        [
          "-c",
          "cat '\(sandbox.archive.path)' | '\(FolioBinary.url.path)' expand - -o '\(sandbox.destination.path)'",
        ])
      #expect(result.status == 1)
      #expect(result.errorText.contains("[compression-ratio]"), "\(result.errorText)")
      #expect(sandbox.snapshot() == before)
      #expect(result.peakMemoryKiB < Self.memoryBoundKiB)
      // A plain copy past --max-bytes is refused too.
      let bytes = try ChildProcess.run(
        "/bin/sh",
        [
          "-c",
          "gzip -dc '\(sandbox.archive.path)' | '\(FolioBinary.url.path)' expand - -o '\(sandbox.destination.path)' --max-bytes 1M",
        ])
      #expect(bytes.errorText.contains("[expansion-too-large]"), "\(bytes.errorText)")
      #expect(sandbox.snapshot() == before)
    }
  }

  static func changes(
    _ before: [String: TreeSnapshot.Entry], _ after: [String: TreeSnapshot.Entry]
  ) -> String {
    TreeSnapshot(entries: after).differences(from: TreeSnapshot(entries: before)).joined(
      separator: "; ")
  }
}
