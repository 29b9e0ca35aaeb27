import FolioTestSupport
import Foundation
import Testing

@testable import Archives

/// ``ZipReuseIndex`` as ``Packer`` opens it: the earlier zip's copied pages leave the page
/// cache only when the new archive replaces it.
@Suite struct ZipReuseIndexTests {
  @Test(arguments: [true, false])
  func theEarlierZipForgetsCopiedBytesOnlyWhenItIsReplaced(_ inPlace: Bool) async throws {
    try await withTemporaryDirectory("reuse-index") { folder in
      let package = try PackTestTrees.make(
        folder.appendingPathComponent("Doc.pkg"), files: ["page.txt": Data("a page".utf8)])
      let earlier = folder.appendingPathComponent("Doc.zip")
      _ = try Packer.packSynchronously(package, to: earlier, options: PackOptions(format: .zip))
      var options = PackOptions(format: .zip)
      options.previousArchive = earlier
      // Spelled another way when in place: the same file all the same.
      let output =
        inPlace
        ? folder.appendingPathComponent("sub/../Doc.zip")
        : folder.appendingPathComponent("Copy.zip")

      let index = try #require(
        try Packer.reuseIndex(options: options, format: .zip, output: output))
      #expect(index.archive.file.forgetsCopiedBytes == inPlace)
      #expect(index.entryCount == 2)
    }
  }
}
