import Archives
import FolioTestSupport
import Foundation
import Testing

/// Issue 10 item 3, through the built `folio`: a package's lock is keyed by its resolved
/// folder, so every spelling of it excludes the others, and a package on a read-only file
/// system can still be read.
@Suite struct LockSpellingTests {
  @Test func packThroughALinkAndUpdateOfTheFolderExcludeEachOther() async throws {
    try await withTemporaryDirectory("lock-spelling-e2e") { folder in
      let package = folder.appendingPathComponent("X")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: false)
      try Data("a".utf8).write(to: package.appendingPathComponent("a.txt"))
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent("Xlink").path, withDestinationPath: "X")
      let folio = FolioBinary.url.path
      #expect(
        try ChildProcess.run(
          folio, ["pack", package.path, "-o", folder.appendingPathComponent("x.zip").path]
        ).status == 0)

      // A reader of 'Xlink' (as `folio pack Xlink` is) keeps `expand -o X --update` out…
      let reader = try await PackageLock.acquire(
        .shared, on: folder.appendingPathComponent("Xlink"), options: LockOptions(timeout: .zero))
      let update = try ChildProcess.run(
        folio,
        [
          "expand", folder.appendingPathComponent("x.zip").path, "-o", package.path, "--update",
          "--lock-timeout", "0",
        ])
      #expect(update.status == 1)
      #expect(update.errorText.contains("[lock-timeout]"), "\(update.errorText)")
      reader.release()

      // …and a writer of 'X' keeps `folio pack Xlink` (and './X/') out.
      let writer = try await PackageLock.acquire(
        .exclusive, on: package, options: LockOptions(timeout: .zero))
      for spelling in ["Xlink", "./X/"] {
        let pack = try ChildProcess.run(
          "/bin/sh",
          [
            "-c",
            "cd '\(folder.path)' && '\(folio)' pack \(spelling) -o y.zip --lock-timeout 0",
          ])
        #expect(pack.status == 1, "\(spelling)")
        #expect(pack.errorText.contains("timed out"), "\(spelling): \(pack.errorText)")
      }
      writer.release()
    }
  }

  /// Whether a read-only bind mount can be made here (in a user namespace, or as root).
  static let readOnlyMountWorks: Bool = {
    (try? runProcess(
      "sh",
      [
        "-c",
        "d=$(mktemp -d) && unshare -rm sh -c \"mount --bind $d $d && mount -o remount,ro,bind $d $d && ! touch $d/x 2>/dev/null\"; s=$?; rm -rf $d; exit $s",
      ]
    ).status) == 0
  }()

  @Test(
    .enabled(if: readOnlyMountWorks, "needs unshare -rm and mount (a user namespace)"))
  func aPackageOnAReadOnlyFileSystemCanBeRead() async throws {
    try await withTemporaryDirectory("lock-read-only") { folder in
      let source = folder.appendingPathComponent("src")
      let mounted = folder.appendingPathComponent("ro")
      try FileManager.default.createDirectory(at: mounted, withIntermediateDirectories: false)
      try FileManager.default.createDirectory(
        at: source.appendingPathComponent("Note.examplenotebook"),
        withIntermediateDirectories: true)
      try Data("page".utf8).write(
        to: source.appendingPathComponent("Note.examplenotebook/page.txt"))
      let package = mounted.appendingPathComponent("Note.examplenotebook").path
      let folio = FolioBinary.url.path
      let out = folder.path
      let script = """
        mount --bind '\(source.path)' '\(mounted.path)' && mount -o remount,ro,bind '\(mounted.path)' '\(mounted.path)' || exit 9
        '\(folio)' export '\(package)' --to zip -o '\(out)/export.zip' || exit 1
        '\(folio)' pack '\(package)' -o '\(out)/pack.tar.gz' || exit 2
        """
      let result = try ChildProcess.run("/usr/bin/unshare", ["-rm", "/bin/sh", "-c", script])
      #expect(result.status == 0, "\(result.errorText)")
      #expect(FileManager.default.fileExists(atPath: "\(out)/export.zip"))
      #expect(FileManager.default.fileExists(atPath: "\(out)/pack.tar.gz"))
      // Nothing was (or could be) written beside the package.
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: source.path) == ["Note.examplenotebook"]
      )
    }
  }
}
