import Archives
import Documents
import FolioTestSupport
import Foundation
import Testing

// Foundation: "When you change the preferred filename, the default implementation of this
// property causes the existing parent directory file wrappers to remove and re-add the child
// to accommodate the change."
// https://developer.apple.com/documentation/foundation/filewrapper/preferredfilename
@Suite struct FileWrapperPreferredFilenameTests {
  @Test func renamingAChildReKeysItInItsParent() {
    let page = FileWrapper(regularFileWithContents: Data("one".utf8))
    let root = FileWrapper(directoryWithFileWrappers: ["a.txt": page])
    page.preferredFilename = "b.txt"
    #expect(root.fileWrappers?.keys.sorted() == ["b.txt"])
    #expect(root.fileWrappers?["b.txt"] === page)
    #expect(root.keyForChildFileWrapper(page) == "b.txt")
  }

  @Test func renamingToATakenNameGivesAUniqueKeyAsAddingDoes() throws {
    let root = FileWrapper(directoryWithFileWrappers: [:])
    root.addRegularFile(withContents: Data("a".utf8), preferredFilename: "a.txt")
    let other = FileWrapper(regularFileWithContents: Data("b".utf8))
    other.preferredFilename = "b.txt"
    root.addFileWrapper(other)
    other.preferredFilename = "a.txt"
    let keys = root.fileWrappers?.keys.sorted() ?? []
    #expect(keys.count == 2)
    #expect(keys.contains("a.txt"))
    let key = try #require(root.keyForChildFileWrapper(other))
    #expect(key != "a.txt" && key.hasSuffix("a.txt"))
  }

  @Test func everyParentHoldingTheChildReKeysIt() {
    let shared = FileWrapper(regularFileWithContents: Data("x".utf8))
    shared.preferredFilename = "x.txt"
    let first = FileWrapper(directoryWithFileWrappers: [:])
    let second = FileWrapper(directoryWithFileWrappers: [:])
    first.addFileWrapper(shared)
    second.addFileWrapper(shared)
    shared.preferredFilename = "y.txt"
    #expect(first.fileWrappers?.keys.sorted() == ["y.txt"])
    #expect(second.fileWrappers?.keys.sorted() == ["y.txt"])
  }

  @Test func aRemovedChildNoLongerReKeysInItsFormerParent() {
    let root = FileWrapper(directoryWithFileWrappers: [:])
    let page = FileWrapper(regularFileWithContents: Data("p".utf8))
    page.preferredFilename = "p.txt"
    root.addFileWrapper(page)
    root.removeFileWrapper(page)
    page.preferredFilename = "q.txt"
    #expect(root.fileWrappers?.isEmpty == true)
  }

  @Test func aChildReadFromDiskReKeysAndIsWrittenUnderItsNewName() async throws {
    try await withTemporaryDirectory("wrapper-rekey") { folder in
      let package = folder.appendingPathComponent("Doc.pkg")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      try Data("old".utf8).write(to: package.appendingPathComponent("draft.txt"))
      let root = try FileWrapper(url: package)
      let draft = try #require(root.fileWrappers?["draft.txt"])
      draft.preferredFilename = "final.txt"
      #expect(root.fileWrappers?.keys.sorted() == ["final.txt"])
      let copy = folder.appendingPathComponent("Copy.pkg")
      try root.write(to: copy, options: .atomic, originalContentsURL: package)
      #expect(try FileManager.default.contentsOfDirectory(atPath: copy.path) == ["final.txt"])
      #expect(try Data(contentsOf: copy.appendingPathComponent("final.txt")) == Data("old".utf8))
    }
  }
}
