import FolioSystem
import FolioTestSupport
import Foundation
import Testing

@testable import Archives

@Suite struct FolderNamesTests {
  /// Creates empty files with these names (raw bytes) in a folder and lists it.
  private func listing(_ names: [[UInt8]], sorted: Bool) async throws -> [[UInt8]] {
    try await withTemporaryDirectory("folder-names") { folder in
      for name in names {
        let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let descriptor = path.withUnsafeBufferPointer {
          $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        #expect(descriptor >= 0)
        close(descriptor)
      }
      let root = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      defer { close(root) }
      let listed = try FolderNames(folder: root, sorted: sorted)
      var result: [[UInt8]] = []
      for index in 0..<listed.count {
        let (name, cName) = listed[index]
        #expect(strlen(cName) == name.count)
        result.append(Array(name))
      }
      #expect(listed.count == result.count)
      return result
    }
  }

  @Test func sortsNamesByTheirUTF8BytesNotByUnicodeOrder() async throws {
    // "é" precomposed (C3 A9) and decomposed ("e" + CC 81), upper case before lower, a
    // prefix before its longer names, and a 255-byte name among short ones.
    let names = [
      "b", "a", "B", "ab", "caf\u{E9}", "cafe\u{301}", "Z", "\u{1F4D8}", "a.txt",
      String(repeating: "x", count: 255),
    ].map { Array($0.utf8) }
    let listed = try await listing(names, sorted: true)
    #expect(listed == names.sorted { $0.lexicographicallyPrecedes($1) })
  }

  @Test func namesSharingTheirFirstEightBytesSortByTheRest() async throws {
    // The sort orders names by their first eight bytes first: names that share them, names
    // of seven, eight and nine bytes, and bytes above 0x7F among them need the rest.
    var names = [
      "pages-00", "pages-0", "pages-000", "pages-001", "pages-00a", "pages-01", "pages\u{E9}",
      "pages\u{E9}1", "pages\u{1F4D8}", "page", "pag", "\u{E9}\u{E9}\u{E9}\u{E9}",
    ].map { Array($0.utf8) }
    names += (0..<500).map { Array("chapter-\(($0 * 7919) % 1000)".utf8) }
    let listed = try await listing(names, sorted: true)
    #expect(listed == names.sorted { $0.lexicographicallyPrecedes($1) })
  }

  @Test func unsortedListingHoldsEveryNameOnce() async throws {
    let names = (0..<3000).map { Array("page-\($0).txt".utf8) }
    let listed = try await listing(names, sorted: false)
    #expect(listed.count == names.count)
    #expect(Set(listed) == Set(names))
  }

  @Test func anEmptyFolderHasNoNames() async throws {
    #expect(try await listing([], sorted: true).isEmpty)
  }

  @Test func aNameThatIsNotUTF8StopsTheListingWithItsBytes() async throws {
    let bad: [UInt8] = Array("caf".utf8) + [0xE9]
    await #expect {
      _ = try await listing([Array("good".utf8), bad], sorted: true)
    } throws: { error in
      (error as? FolderNames.InvalidName)?.bytes == bad
    }
  }
}
