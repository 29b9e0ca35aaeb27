import Archives
import FolioTestSupport
import Foundation
import Testing

/// ISO 9660 images whose Rock Ridge continuation areas (SUSP `CE`) loop, which libarchive
/// 3.6 (and bsdtar) parse forever: refused before libarchive reads them, in a file and
/// behind gzip (a stream, copied to a file first, as standard input is); images with
/// ordinary chains still expand.
@Suite(.enabled(if: programExists("genisoimage"), "needs genisoimage (scripts/bootstrap.sh)"))
struct RockRidgeContinuationCheckTests {
  /// Python writing, with genisoimage, an image whose names are long enough for Rock Ridge
  /// to continue them in `CE` areas, then applying `change(data, areas)` (`areas`: each
  /// `CE` entry's position, block, offset and length).
  static func imageScript(_ change: String) -> String {
    """
    import gzip, os, struct, subprocess
    os.makedirs('tree/sub', exist_ok=True)
    open('tree/' + 'n' * 250, 'w').write('long name')
    open('tree/sub/' + 'm' * 240, 'w').write('another')
    open('tree/short.txt', 'w').write('short')
    subprocess.run(['genisoimage', '-quiet', '-R', '-o', 'OUT', 'tree'], check=True)
    data = bytearray(open('OUT', 'rb').read())
    areas, at = [], data.find(b'CE\\x1c\\x01')
    while at >= 0:
        areas.append((at,) + tuple(struct.unpack_from('<I', data, at + k)[0] for k in (4, 12, 20)))
        at = data.find(b'CE\\x1c\\x01', at + 1)
    assert areas, 'genisoimage wrote no continuation area'
    def both(v):
        return struct.pack('<I', v) + struct.pack('>I', v)
    def entry(block, offset, length):
        return b'CE\\x1c\\x01' + both(block) + both(offset) + both(length)
    \(change)
    open('OUT', 'wb').write(data)
    """
  }

  static let loops: [(String, String)] = [
    (
      "an area continuing in itself",
      """
      _, block, offset, _ = areas[0]
      data[block * 2048 + offset:block * 2048 + offset + 28] = entry(block, offset, 28)
      """
    ),
    (
      "two areas continuing in each other",
      """
      _, block, offset, _ = areas[0]
      spare = block * 2048 + 1024
      data[block * 2048 + offset:block * 2048 + offset + 28] = entry(block, 1024, 28)
      data[spare:spare + 28] = entry(block, offset, 28)
      """
    ),
  ]

  @Test(arguments: loops.map(\.0), ["file", "gzip"])
  func loopingContinuationAreasAreRefused(_ layout: String, _ how: String) async throws {
    let change = try #require(Self.loops.first { $0.0 == layout }?.1)
    try await withTemporaryDirectory("iso-ce-loop") { folder in
      let image = folder.appendingPathComponent("loop.iso")
      let made = try runProcess(
        "python3",
        ["-c", Self.imageScript(change).replacingOccurrences(of: "OUT", with: image.path)],
        in: folder)
      try #require(made.status == 0, "\(made.errorText)")
      let destination = folder.appendingPathComponent("ours")
      let error = #expect(throws: PackagingError.self) {
        if how == "file" {
          _ = try Expander.expandSynchronously(image, into: destination)
        } else {
          let packed = folder.appendingPathComponent("loop.iso.gz")
          try Self.gzip(image, to: packed)
          _ = try Expander.expandSynchronously(packed, into: destination)
        }
      }
      #expect(error?.code == .corruptArchive, "\(String(describing: error))")
      #expect(error?.message.contains("Rock Ridge continuation areas") == true)
      #expect(!FileManager.default.fileExists(atPath: destination.path))
    }
  }

  @Test func ordinaryContinuationAreasExpandAsBsdtarExpandsThem() async throws {
    try await withTemporaryDirectory("iso-ce") { folder in
      let script = Self.imageScript("pass")
      let result = try LibArchiveSourceTests.expectExpandsAsBsdtar(
        python: script, in: folder, "continued names")
      #expect(result.fileCount == 3)
    }
  }

  static func gzip(_ source: URL, to target: URL) throws {
    let packed = try runProcess("gzip", ["-c", source.path])
    try #require(packed.status == 0, "\(packed.errorText)")
    try packed.standardOutput.write(to: target)
  }
}
