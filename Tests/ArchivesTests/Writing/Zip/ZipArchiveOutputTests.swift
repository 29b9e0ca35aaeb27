import FolioSystem
import FolioTestSupport
import Foundation
import Glibc
import Testing

@testable import Archives

/// ``ZipArchiveOutput``'s copies from another file (`pack --update`'s reused entries):
/// gathered, placed in order with the buffered bytes, and refused when the file ends early,
/// whether made on the writing thread or on a thread of their own.
@Suite struct ZipArchiveOutputTests {
  /// An output on a new file in `folder`, and that file's descriptor.
  private func makeOutput(in folder: URL, copiesInBackground: Bool) throws -> (
    ZipArchiveOutput, Int32, URL
  ) {
    let url = folder.appendingPathComponent("out.zip")
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    try #require(descriptor >= 0)
    let output = ZipArchiveOutput(
      descriptor: descriptor, archiveName: url.path, spillFolder: folder.path,
      copiesInBackground: copiesInBackground)
    return (output, descriptor, url)
  }

  @Test(arguments: [false, true])
  func copiesAndBufferedBytesKeepTheirOrderAndOffsets(inBackground: Bool) async throws {
    try await withTemporaryDirectory("zip-output-copy") { folder in
      // Past a write-behind stretch, so a copy is made before the entries end too.
      let earlier = PackTestTrees.randomBytes(WriteBehind.stretch + 300_000, seed: 9)
      let earlierURL = folder.appendingPathComponent("earlier.zip")
      try earlier.write(to: earlierURL)
      let file = try ArchiveFile(path: earlierURL.path)
      let (output, descriptor, url) = try makeOutput(
        in: folder, copiesInBackground: inBackground)
      defer { close(descriptor) }

      try output.append(Array("A".utf8))
      // Three stretches one after another in the earlier file: one copy.
      try output.appendCopy(of: file, at: 100, count: 50, entry: "a")
      try output.appendCopy(of: file, at: 150, count: 50, entry: "b")
      try output.appendCopy(
        of: file, at: 200, count: Int64(WriteBehind.stretch), entry: "c")
      #expect(output.offset == 1 + 100 + UInt64(WriteBehind.stretch))
      // Not where the last ended: a copy of its own.
      try output.appendCopy(of: file, at: 10, count: 20, entry: "d")
      try output.append(Array("B".utf8))
      try output.appendCopy(of: file, at: 0, count: 5, entry: "e")
      try output.flush()

      var expected = Data("A".utf8)
      expected += earlier[100..<(200 + WriteBehind.stretch)]
      expected += earlier[10..<30]
      expected += Data("B".utf8)
      expected += earlier[0..<5]
      #expect(output.offset == UInt64(expected.count))
      // Then the (empty) central directory's end record, once every copy is made.
      try output.finish()
      #expect(try Data(contentsOf: url).prefix(expected.count) == expected)
    }
  }

  @Test(arguments: [false, true])
  func anEarlierArchiveThatShrankFailsNamingItsEntries(inBackground: Bool) async throws {
    try await withTemporaryDirectory("zip-output-shrank") { folder in
      let earlierURL = folder.appendingPathComponent("earlier.zip")
      try Data(repeating: 1, count: 10_000).write(to: earlierURL)
      let file = try ArchiveFile(path: earlierURL.path)
      let (output, descriptor, _) = try makeOutput(in: folder, copiesInBackground: inBackground)
      defer { close(descriptor) }
      try output.appendCopy(of: file, at: 0, count: 4_000, entry: "pages/1.txt")
      try output.appendCopy(of: file, at: 4_000, count: 4_000, entry: "pages/2.txt")
      #expect(truncate(earlierURL.path, 6_000) == 0)
      // Made on the writing thread, the copy fails at once; on its own thread, by the end.
      let error = try #require(throws: PackagingError.self) {
        try output.flush()
        try output.finish()
      }
      #expect(error.code == .corruptArchive)
      #expect(error.message.contains("'\(earlierURL.path)'"), "\(error.message)")
      #expect(error.message.contains("'pages/1.txt' to 'pages/2.txt'"), "\(error.message)")
    }
  }
}
