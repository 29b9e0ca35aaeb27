import FolioSystem
import FolioTestSupport
import Foundation
import Glibc
import Testing

@testable import Archives

/// The walk that keeps its entries (`pack --update`'s): a large folder looked up on two
/// threads gives what one thread gives, in the same order.
@Suite struct PackageWalkerTests {
  @Test func aLargeFolderLookedUpOnTwoThreadsGivesTheSameEntries() async throws {
    try await withTemporaryDirectory("walker-parallel") { folder in
      let package = folder.appendingPathComponent("Pkg")
      let pages = package.appendingPathComponent("pages")
      try FileManager.default.createDirectory(
        at: pages.appendingPathComponent("sub"), withIntermediateDirectories: true)
      let count = FolderStats.parallelThreshold + 300
      for index in 0..<count {
        try Data(repeating: UInt8(index % 251), count: index % 97).write(
          to: pages.appendingPathComponent("page-\(index).txt"))
      }
      try FileManager.default.createSymbolicLink(
        atPath: pages.appendingPathComponent("link").path, withDestinationPath: "page-1.txt")
      let tagged = pages.appendingPathComponent("page-7.txt").path
      let hasAttributes =
        (try? ExtendedAttributes.set(Array("user.tag".utf8), to: [1], atPath: tagged)) != nil
      let root = open(package.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      try #require(root >= 0)
      defer { close(root) }
      func entries(inParallel: Bool) throws -> [String] {
        var walker = PackageWalker(root: root, rootPath: package.path, allowExternalSymlinks: false)
        walker.listsAttributes = true
        walker.looksUpInParallel = inParallel
        let (items, totals) = try walker.collect()
        #expect(totals.entries == items.count)
        return items.map { item in
          "\(item.relativePath) \(item.kind) \(item.info.st_ino) \(item.info.st_size) "
            + "\(item.info.st_mode) \(String(describing: item.attributeListLength))"
        }
      }
      let one = try entries(inParallel: false)
      let two = try entries(inParallel: true)
      #expect(one.count == count + 4)  // the root, pages, sub, the pages and the link
      #expect(one == two)
      if hasAttributes {
        #expect(two.contains { $0.hasPrefix("pages/page-7.txt ") && $0.hasSuffix(" Optional(9)") })
      }
    }
  }
}
