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
          "\(item.path) \(item.kind) \(item.info.st_ino) \(item.info.st_size) "
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

  /// A package of `count` small pages in one folder, a subfolder, and a link.
  private func makeLargeFolder(in folder: URL, count: Int) throws -> URL {
    let package = folder.appendingPathComponent("Pkg")
    let pages = package.appendingPathComponent("pages")
    try FileManager.default.createDirectory(
      at: pages.appendingPathComponent("sub"), withIntermediateDirectories: true)
    for index in 0..<count {
      try Data(repeating: UInt8(index % 251), count: index % 97).write(
        to: pages.appendingPathComponent("page-\(index).txt"))
    }
    try FileManager.default.createSymbolicLink(
      atPath: pages.appendingPathComponent("link").path, withDestinationPath: "page-1.txt")
    return package
  }

  /// Runs `body` with a walker over `package` that lists attributes and looks large folders
  /// up on two threads (or not, when `parallel` is false), the package open meanwhile.
  private func withWalker<T>(
    of package: URL, parallel: Bool = true, _ body: (PackageWalker) throws -> T
  ) throws -> T {
    let root = open(package.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    try #require(root >= 0)
    defer { close(root) }
    var walker = PackageWalker(root: root, rootPath: package.path, allowExternalSymlinks: false)
    walker.listsAttributes = parallel
    walker.looksUpInParallel = parallel
    return try body(walker)
  }

  /// Starts a walk on a thread of its own, handing its entries over.
  private func handOff(_ walker: PackageWalker) -> (PackageWalker.Handoff, BackgroundWork<Void>) {
    let handoff = PackageWalker.Handoff()
    let walking = BackgroundWork(inBackground: true) { [walker] in
      walker.walk(handingOffTo: handoff)
    }
    return (handoff, walking)
  }

  @Test func aWalkHandedToAnotherThreadGivesTheEntriesInOrderThenTheTotals() async throws {
    try await withTemporaryDirectory("walker-handoff") { folder in
      let package = try makeLargeFolder(in: folder, count: FolderStats.parallelThreshold + 700)
      try withWalker(of: package) { walker in
        let (collected, collectedTotals) = try walker.collect()
        let (handoff, walking) = handOff(walker)
        defer { walking.wait() }
        var handed: [PackageWalker.Item] = []
        var chunks = 0
        while let chunk = try handoff.next() {
          #expect(!chunk.isEmpty && chunk.count <= PackageWalker.Handoff.chunkSize)
          handed += chunk
          chunks += 1
        }
        #expect(chunks > 1, "handed over as it went, not at the end")
        #expect(handed.map(\.path) == collected.map(\.path))
        #expect(handed.map(\.info.st_ino) == collected.map(\.info.st_ino))
        #expect(handed.map(\.attributeListLength) == collected.map(\.attributeListLength))
        let totals = try handoff.totals
        #expect(totals.entries == collectedTotals.entries)
        #expect(totals.allBytes == collectedTotals.allBytes)
        #expect(try handoff.next() == nil, "ended")
      }
    }
  }

  @Test func aWalkThatFailsHandsItsErrorOverAfterItsEntries() async throws {
    try await withTemporaryDirectory("walker-handoff-fails") { folder in
      let package = try makeLargeFolder(in: folder, count: 600)
      // Sorted after every page: the walk fails once it has handed the pages over.
      let fifo = package.appendingPathComponent("zz.fifo").path
      try #require(mkfifo(fifo, 0o644) == 0)
      try withWalker(of: package, parallel: false) { walker in
        let (handoff, walking) = handOff(walker)
        defer { walking.wait() }
        var handed = 0
        let error = try #require(throws: PackagingError.self) {
          while let chunk = try handoff.next() { handed += chunk.count }
        }
        #expect(error.code == .unsupportedFileType)
        #expect(error.message.contains(fifo), "\(error.message)")
        #expect(handed >= 2 * PackageWalker.Handoff.chunkSize, "the pages came first")
      }
    }
  }

  /// A walk that fails in the first chunk of a large folder, while the helper still looks
  /// up later ones, reports the failure and lets the helper end before the folder is
  /// closed; walking again then gives every entry.
  @Test func aWalkThatFailsBesideItsHelperReportsThePath() async throws {
    try await withTemporaryDirectory("walker-helper-fails") { folder in
      let package = try makeLargeFolder(in: folder, count: FolderStats.parallelThreshold * 4)
      // Sorted before every page, so it is met while the helper looks up later chunks.
      let fifo = package.appendingPathComponent("pages/a.fifo").path
      try #require(mkfifo(fifo, 0o644) == 0)
      try withWalker(of: package) { walker in
        for _ in 0..<3 {
          let error = try #require(throws: PackagingError.self) { try walker.collect() }
          #expect(error.code == .unsupportedFileType)
          #expect(error.message.contains(fifo), "\(error.message)")
        }
        #expect(unlink(fifo) == 0)
        let (items, _) = try walker.collect()
        #expect(items.count == FolderStats.parallelThreshold * 4 + 4)
      }
    }
  }

  @Test func aTopFolderPrefixesEveryPathWhileChecksAndMessagesUseThePackagesOwn()
    async throws
  {
    try await withTemporaryDirectory("walker-top-folder") { folder in
      let package = folder.appendingPathComponent("Pkg")
      let sub = package.appendingPathComponent("dir")
      try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
      try Data("a".utf8).write(to: package.appendingPathComponent("a.txt"))
      try Data("b".utf8).write(to: sub.appendingPathComponent("b.txt"))
      try Data("c".utf8).write(to: sub.appendingPathComponent("c.txt"))
      // Resolved from its own folder inside the package, not from a folder named "Top".
      try FileManager.default.createSymbolicLink(
        atPath: sub.appendingPathComponent("up").path, withDestinationPath: "../a.txt")
      let root = open(package.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      try #require(root >= 0)
      defer { close(root) }
      var walker = PackageWalker(root: root, rootPath: package.path, allowExternalSymlinks: false)
      walker.topFolder = "Top"
      // A selection names package paths, without the top folder.
      walker.selection = try PathSelection(including: [], excluding: ["dir/c.txt"])
      let (items, _) = try walker.collect()
      #expect(items.map(\.path) == ["Top", "Top/a.txt", "Top/dir", "Top/dir/b.txt", "Top/dir/up"])
      #expect(walker.packagePath(of: "Top/dir/b.txt") == "dir/b.txt")
      #expect(walker.packagePath(of: "Top") == "")

      // A link leaving the package is named by its path on disk.
      try FileManager.default.createSymbolicLink(
        atPath: sub.appendingPathComponent("out").path, withDestinationPath: "../../x")
      let error = try #require(throws: PackagingError.self) { try walker.collect() }
      #expect(error.code == .externalSymlink)
      #expect(error.message.contains(sub.appendingPathComponent("out").path), "\(error.message)")
    }
  }

  @Test func aWriterThatStoppedEndsTheWalkAtItsFirstHandover() async throws {
    try await withTemporaryDirectory("walker-handoff-stop") { folder in
      let package = try makeLargeFolder(in: folder, count: 2_000)
      try withWalker(of: package) { walker in
        let handoff = PackageWalker.Handoff()
        handoff.stop()
        walker.walk(handingOffTo: handoff)
        #expect(throws: (any Error).self) { try handoff.next() }
        #expect(throws: (any Error).self) { try handoff.totals }
      }
    }
  }
}

extension PackageWalker {
  /// Every entry of one walk in archive order, and their totals, on this thread: what the
  /// walk handed to another thread must give.
  fileprivate func collect() throws -> (items: [Item], totals: Totals) {
    var items: [Item] = []
    var totals = Totals()
    try walk(ordered: true, listingAttributes: listsAttributes, inParallel: looksUpInParallel) {
      item in
      totals.add(item)
      items.append(item)
    }
    return (items, totals)
  }
}
