import FolioTestSupport
import Foundation
import Testing

/// `scripts/release.sh` packages a binary (here the debug build, to keep CI short; the
/// release build itself is made by hand) and `scripts/check-package.sh` accepts the result.
@Suite struct ReleasePackageTests {
  @Test func releaseScriptWritesATarballAndADebianPackageThatCheckPackageAccepts() throws {
    let folder = try makeTemporaryDirectory("release")
    defer { removeTree(folder) }
    let root = ProjectPaths.root
    let release = try runProcess(
      root.appendingPathComponent("scripts/release.sh").path,
      ["--binary", FolioBinary.url.path, "--out", folder.path, "--fast"], in: root)
    #expect(release.status == 0, "\(release.errorText)")
    let check = try runProcess(
      root.appendingPathComponent("scripts/check-package.sh").path, ["--debug", folder.path],
      in: root)
    #expect(check.status == 0, "\(check.errorText)")

    let version = try FolioBinary.run(["--version"]).outputText
      .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "folio ", with: "")
    let deb = folder.appendingPathComponent("folio_\(version)_amd64.deb")
    let depends = try runProcess("dpkg-deb", ["--field", deb.path, "Depends"]).outputText
    #expect(depends.contains("libarchive13 (>= "))
    #expect(depends.contains("libxml2 (>= "))
    // The man page inside is the checked-in one, generated from the same binary.
    let extracted = folder.appendingPathComponent("root")
    #expect(try runProcess("dpkg-deb", ["--extract", deb.path, extracted.path]).status == 0)
    let manPage = try runProcess(
      "sh", ["-c", "zcat '\(extracted.path)/usr/share/man/man1/folio.1.gz'"]
    ).outputText
    #expect(
      manPage
        == (try String(
          contentsOf: root.appendingPathComponent("docs/folio.1"), encoding: .utf8)))
    let tarball = folder.appendingPathComponent("folio-\(version)-linux-x86_64.tar.gz")
    let listing = try runProcess("tar", ["-tzvf", tarball.path]).outputText
    #expect(listing.contains("root/root") || listing.contains("0/0"))
    #expect(listing.contains("folio-\(version)-linux-x86_64/bin/folio"))
  }
}
