import FolioTestSupport
import Foundation
import Testing

/// Issue 10 items 2, 7 and 8 through the built `folio`: `--update` never follows a
/// symbolic link it finds in the destination, the archive is never the destination, and
/// modes survive a replacement.
@Suite struct DestinationSafetyTests {
  private static func inode(_ path: String) -> (inode: UInt64, links: UInt64)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return (UInt64(info.st_ino), UInt64(info.st_nlink))
  }

  private static func mode(_ path: String) -> UInt32 {
    var info = stat()
    lstat(path, &info)
    return UInt32(info.st_mode) & 0o7777
  }

  private static func folio(_ arguments: [String]) throws -> ChildResult {
    try ChildProcess.run(FolioBinary.url.path, arguments)
  }

  /// Builds an archive of `tree` (relative path → contents) with bsdtar in `format`.
  private static func archive(
    _ tree: [String: String], format: String, at archive: URL, scratch: URL
  ) throws {
    let root = scratch.appendingPathComponent("tree-\(UUID().uuidString)")
    for (path, text) in tree {
      let file = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
    }
    let options = format == "zip" ? ["--format", "zip"] : ["--format", "pax"]
    let made = try runProcess(
      "bsdtar", ["-c"] + options + ["-f", archive.path, "-C", root.path] + tree.keys.sorted())
    guard made.status == 0 else { throw ShimFailure("bsdtar: \(made.errorText)") }
    try FileManager.default.removeItem(at: root)
  }

  // MARK: 2. --update through a symbolic link in the destination

  @Test(arguments: ["zip", "tar"])
  func updateNeverAdoptsAFileBehindALinkInTheDestination(_ format: String) async throws {
    try await withTemporaryDirectory("update-link-inside") { folder in
      let outside = folder.appendingPathComponent("outside")
      try FileManager.default.createDirectory(
        at: outside.appendingPathComponent("deep"), withIntermediateDirectories: true)
      try Data("same".utf8).write(to: outside.appendingPathComponent("f.txt"))
      try Data("same".utf8).write(to: outside.appendingPathComponent("deep/g.txt"))
      let destination = folder.appendingPathComponent("dest")
      try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
      try Data("kept".utf8).write(to: destination.appendingPathComponent("own.txt"))
      for (name, target) in [("sub", "../outside"), ("other", "../outside")] {
        try FileManager.default.createSymbolicLink(
          atPath: destination.appendingPathComponent(name).path, withDestinationPath: target)
      }
      let archive = folder.appendingPathComponent("a.\(format)")
      try Self.archive(
        ["sub/f.txt": "same", "other/deep/g.txt": "same", "own.txt": "kept"], format: format,
        at: archive, scratch: folder)
      let outsideBefore = TreeSnapshot.take(outside)
      let result = try Self.folio(["expand", archive.path, "-o", destination.path, "--update"])
      #expect(result.status == 0, "\(result.errorText)")
      #expect(TreeSnapshot.take(outside) == outsideBefore, "outside changed")
      for (inside, shadow) in [("sub/f.txt", "f.txt"), ("other/deep/g.txt", "deep/g.txt")] {
        let mine = Self.inode(destination.appendingPathComponent(inside).path)
        let theirs = Self.inode(outside.appendingPathComponent(shadow).path)
        #expect(mine != nil && mine?.inode != theirs?.inode, "\(inside) shares an inode")
        #expect(theirs?.links == 1, "\(shadow) gained a link")
      }
      // The destination's own unchanged file was kept (same inode): update still works.
      #expect(result.outputText.contains("1 unchanged file kept"), "\(result.outputText)")
    }
  }

  @Test(arguments: ["--update", "--force"])
  func aDestinationThatIsALinkIsResolvedOnceAndNamed(_ mode: String) async throws {
    try await withTemporaryDirectory("update-link-dest") { folder in
      let versions = folder.appendingPathComponent("Versions")
      for version in ["1", "2"] {
        let tree = versions.appendingPathComponent(version)
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try Data("same".utf8).write(to: tree.appendingPathComponent("f.txt"))
      }
      let current = folder.appendingPathComponent("Current")
      try FileManager.default.createSymbolicLink(
        atPath: current.path, withDestinationPath: "Versions/2")
      let archive = folder.appendingPathComponent("a.zip")
      try Self.archive(
        ["f.txt": "same", "new.txt": "new"], format: "zip", at: archive, scratch: folder)
      let one = TreeSnapshot.take(versions.appendingPathComponent("1"))
      let result = try Self.folio(["expand", archive.path, "-o", current.path, mode])
      #expect(result.status == 0, "\(result.errorText)")
      // The link stays a link to the same place; the folder it points to was written.
      #expect(
        (try? FileManager.default.destinationOfSymbolicLink(atPath: current.path)) == "Versions/2")
      let two = versions.appendingPathComponent("2")
      #expect(FileManager.default.fileExists(atPath: two.appendingPathComponent("new.txt").path))
      #expect(result.outputText.contains("symbolic link \(current.path)"), "\(result.outputText)")
      #expect(TreeSnapshot.take(versions.appendingPathComponent("1")) == one)
      // Nothing in the new tree shares an inode with anything else.
      #expect(Self.inode(two.appendingPathComponent("f.txt").path)?.links == 1)
    }
  }

  // MARK: 7. The archive is never the destination

  @Test(arguments: ["zip", "tar"])
  func theArchiveIsNeverTheDestination(_ format: String) async throws {
    try await withTemporaryDirectory("archive-is-destination") { folder in
      let archive = folder.appendingPathComponent("self.\(format)")
      try Self.archive(["a.txt": "a"], format: format, at: archive, scratch: folder)
      let nested = folder.appendingPathComponent("box/inner")
      try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
      let deep = nested.appendingPathComponent("deep.\(format)")
      try FileManager.default.copyItem(at: archive, to: deep)
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent("boxlink").path, withDestinationPath: "box")
      let cases: [(archive: String, destination: String)] = [
        (archive.path, archive.path),  // the archive itself
        (deep.path, folder.appendingPathComponent("box").path),  // a folder holding it, deep
        (
          folder.appendingPathComponent("boxlink/inner/deep.\(format)").path,
          folder.appendingPathComponent("box").path
        ),  // reached through a link
        (deep.path, folder.appendingPathComponent("boxlink").path),  // DEST is a link to it
      ]
      for item in cases {
        for mode in ["--force", "--update"] {
          let before = TreeSnapshot.take(folder)
          let result = try Self.folio(["expand", item.archive, "-o", item.destination, mode])
          let label = "\(item.archive) -o \(item.destination) \(mode)"
          #expect(result.status == 1, "\(label)")
          #expect(
            result.errorText.contains("[archive-inside-destination]"),
            "\(label): \(result.errorText)")
          let after = TreeSnapshot.take(folder)
          #expect(
            after.differences(from: before).filter {
              !$0.contains("folio-lock") && $0 != "changed mtime: "
            }
            .isEmpty, "\(label): \(after.differences(from: before))")
        }
      }
    }
  }

  // MARK: 8. Modes kept on replace; the destination never locks its owner out

  @Test(arguments: ["zip", "tar.gz"])
  func aReplacedArchiveKeepsItsMode(_ format: String) async throws {
    try await withTemporaryDirectory("pack-mode") { folder in
      let package = folder.appendingPathComponent("Note")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: false)
      try Data("a".utf8).write(to: package.appendingPathComponent("a.txt"))
      let output = folder.appendingPathComponent("Note.\(format)")
      try Data("old".utf8).write(to: output)
      chmod(output.path, 0o600)
      let packed = try Self.folio(["pack", package.path, "-o", output.path, "--force"])
      #expect(packed.status == 0, "\(packed.errorText)")
      #expect(Self.mode(output.path) == 0o600)
      chmod(output.path, 0o640)
      let exported = try Self.folio([
        "export", package.path, "--to", format == "zip" ? "zip" : "tar.gz", "-o", output.path,
        "--force",
      ])
      #expect(exported.status == 0, "\(exported.errorText)")
      #expect(Self.mode(output.path) == 0o640)
      // A new file gets the usual 0666 less the umask.
      let fresh = folder.appendingPathComponent("fresh.\(format)")
      #expect(try Self.folio(["pack", package.path, "-o", fresh.path]).status == 0)
      #expect(Self.mode(fresh.path) == 0o666 & ~Self.umaskValue)
    }
  }

  @Test func aConvertedPropertyListKeepsItsMode() async throws {
    try await withTemporaryDirectory("convert-mode") { folder in
      let plist = folder.appendingPathComponent("Info.plist")
      try FileManager.default.copyItem(at: ProjectPaths.sampleInfoPlist, to: plist)
      chmod(plist.path, 0o604)
      let result = try Self.folio(["plist", "convert", "--to", "binary", plist.path])
      #expect(result.status == 0, "\(result.errorText)")
      #expect(Self.mode(plist.path) == 0o604)
    }
  }

  static let umaskValue: UInt32 = {
    let old = umask(0o022)
    umask(old)
    return UInt32(old)
  }()

  @Test(arguments: ["tar-root-mode-0000", "tar-top-mode-0500"])
  func theDestinationNeverLocksItsOwnerOut(_ name: String) async throws {
    try await withTemporaryDirectory("root-mode") { folder in
      let archive = folder.appendingPathComponent("a.tar")
      try HostileArchiveBuilder.build(
        name, at: archive, outside: folder.appendingPathComponent("x"))
      let destination = folder.appendingPathComponent("dest")
      let result = try Self.folio(["expand", archive.path, "-o", destination.path])
      #expect(result.status == 0, "\(result.errorText)")
      #expect(
        Self.mode(destination.path) & 0o700 == 0o700,
        "\(String(Self.mode(destination.path), radix: 8))")
      #expect(
        FileManager.default.isReadableFile(atPath: destination.appendingPathComponent("a.txt").path)
      )
    }
  }
}
