import Archives
import FolioTestSupport
import Foundation
import Testing

/// xar archives whose entries name two hard-link targets, on which libarchive 3.6 (and
/// bsdtar) loop forever: refused before libarchive reads them, in a file and behind gzip;
/// ordinary hard links still expand as bsdtar expands them.
@Suite struct XarLinkCheckTests {
  /// Python writing, with bsdtar, a xar of a file, a hard link to it and a folder, then
  /// rewriting its table of contents with `change(toc)` and its checksum to match.
  static func xarScript(_ change: String) -> String {
    """
    import hashlib, os, struct, subprocess, zlib
    os.makedirs('tree/d', exist_ok=True)
    open('tree/a.txt', 'w').write('one')
    os.link('tree/a.txt', 'tree/b.txt')
    open('tree/d/c.txt', 'w').write('two')
    subprocess.run(['bsdtar', '--format', 'xar', '-cf', 'OUT', '-C', 'tree', '.'], check=True)
    data = open('OUT', 'rb').read()
    magic, size, version, packed, plain, algorithm = struct.unpack('>4sHHQQI', data[:28])
    toc = zlib.decompress(data[size:size + packed]).decode()
    heap = data[size + packed:]
    \(change)
    packed = zlib.compress(toc.encode())
    header = struct.pack('>4sHHQQI', magic, size, version, len(packed), len(toc.encode()),
                         algorithm)
    open('OUT', 'wb').write(header + packed + hashlib.sha1(packed).digest() + heap[20:])
    """
  }

  static let refusals: [(String, String, String)] = [
    (
      "the original twice",
      """
      original = '<type link="original">hardlink</type>'
      assert original in toc
      toc = toc.replace(original, original + original)
      """,
      "names more than one hard-link target"
    ),
    (
      "a link twice",
      """
      import re
      link = re.search(r'<type link="[0-9]+">hardlink</type>', toc).group(0)
      toc = toc.replace(link, link + link)
      """,
      "names more than one hard-link target"
    ),
    (
      "a DTD",
      """
      toc = toc.replace('<xar>', '<!DOCTYPE xar [<!ENTITY t "x">]>\\n<xar>', 1)
      """,
      "declares a DTD"
    ),
  ]

  @Test(arguments: refusals.map(\.0), ["file", "gzip"])
  func entriesWithTwoLinkTargetsAreRefused(_ layout: String, _ how: String) async throws {
    let (_, change, text) = try #require(Self.refusals.first { $0.0 == layout })
    try await withTemporaryDirectory("xar-links") { folder in
      var archive = folder.appendingPathComponent("links.xar")
      let made = try runProcess(
        "python3",
        ["-c", Self.xarScript(change).replacingOccurrences(of: "OUT", with: archive.path)],
        in: folder)
      try #require(made.status == 0, "\(made.errorText)")
      if how == "gzip" {
        let packed = try runProcess("gzip", ["-c", archive.path])
        archive = folder.appendingPathComponent("links.xar.gz")
        try packed.standardOutput.write(to: archive)
      }
      let destination = folder.appendingPathComponent("ours")
      let error = #expect(throws: PackagingError.self) {
        _ = try Expander.expandSynchronously(archive, into: destination)
      }
      #expect(error?.code == .corruptArchive, "\(String(describing: error))")
      #expect(error?.message.contains(text) == true, "\(String(describing: error))")
      #expect(!FileManager.default.fileExists(atPath: destination.path))
    }
  }

  @Test func ordinaryHardLinksExpandAsBsdtarExpandsThem() async throws {
    try await withTemporaryDirectory("xar") { folder in
      let result = try LibArchiveSourceTests.expectExpandsAsBsdtar(
        python: Self.xarScript("pass"), in: folder, "xar")
      #expect(result.hardLinkCount == 1)
    }
  }
}
