import Archives
import Documents
import FolioTestSupport
import Foundation
import Testing

// Foundation's `serializedRepresentation` and `init(serializedRepresentation:)`
// (https://developer.apple.com/documentation/foundation/filewrapper/serializedrepresentation)
// use an undocumented format; Folio's is a zip archive, checked here by round trips and by
// Python's zipfile as the peer that reads it.
@Suite struct FileWrapperSerializationTests {
  private func makeTree() -> FileWrapper {
    let pages = FileWrapper(directoryWithFileWrappers: [
      "a.txt": FileWrapper(regularFileWithContents: Data("first\n".utf8)),
      "b.txt": FileWrapper(regularFileWithContents: Data(repeating: 0x42, count: 100_000)),
    ])
    let root = FileWrapper(directoryWithFileWrappers: [
      "metadata.json": FileWrapper(regularFileWithContents: Data(#"{"t":1}"#.utf8)),
      "pages": pages,
      "empty": FileWrapper(directoryWithFileWrappers: [:]),
      "latest": FileWrapper(
        symbolicLinkWithDestinationURL: URL(
          fileURLWithPath: "pages/b.txt", relativeTo: URL(fileURLWithPath: "/"))),
    ])
    root.preferredFilename = "Notebook.examplenotebook"
    return root
  }

  @Test func aDirectoryWrapperRoundTrips() throws {
    let data = try #require(makeTree().serializedRepresentation)
    let back = try #require(FileWrapper(serializedRepresentation: data))
    #expect(back.isDirectory)
    #expect(back.preferredFilename == "Notebook.examplenotebook")
    let children = try #require(back.fileWrappers)
    #expect(children.keys.sorted() == ["empty", "latest", "metadata.json", "pages"])
    #expect(children["metadata.json"]?.regularFileContents == Data(#"{"t":1}"#.utf8))
    #expect(children["pages"]?.fileWrappers?["a.txt"]?.regularFileContents == Data("first\n".utf8))
    #expect(
      children["pages"]?.fileWrappers?["b.txt"]?.regularFileContents
        == Data(repeating: 0x42, count: 100_000))
    #expect(children["empty"]?.fileWrappers?.isEmpty == true)
    #expect(children["latest"]?.symbolicLinkDestinationURL?.relativePath == "pages/b.txt")
  }

  @Test func aRegularFileWrapperRoundTrips() throws {
    let file = FileWrapper(regularFileWithContents: Data("hello".utf8))
    file.preferredFilename = "note.txt"
    let data = try #require(file.serializedRepresentation)
    let back = try #require(FileWrapper(serializedRepresentation: data))
    #expect(back.isRegularFile)
    #expect(back.preferredFilename == "note.txt")
    #expect(back.regularFileContents == Data("hello".utf8))
  }

  @Test func aDirectoryHoldingOneFileStaysADirectory() throws {
    let root = FileWrapper(directoryWithFileWrappers: [
      "only.txt": FileWrapper(regularFileWithContents: Data("x".utf8))
    ])
    root.preferredFilename = "wrapper"
    let data = try #require(root.serializedRepresentation)
    let back = try #require(FileWrapper(serializedRepresentation: data))
    #expect(back.isDirectory)
    #expect(back.fileWrappers?.keys.sorted() == ["only.txt"])
  }

  @Test func dataThatIsNotASerializationGivesNil() {
    #expect(FileWrapper(serializedRepresentation: Data("not a zip".utf8)) == nil)
    #expect(FileWrapper(serializedRepresentation: Data()) == nil)
  }

  @Test(.enabled(if: programExists("python3")))
  func theSerializationIsAZipArchivePythonReads() async throws {
    try await withTemporaryDirectory("wrapper-serialized") { folder in
      let archive = folder.appendingPathComponent("wrapper.zip")
      try #require(makeTree().serializedRepresentation).write(to: archive)
      let script = """
        import sys, zipfile
        z = zipfile.ZipFile(sys.argv[1])
        assert z.testzip() is None
        print("\\n".join(sorted(z.namelist())))
        """
      let result = try runProcess("python3", ["-c", script, archive.path])
      #expect(result.status == 0)
      let names = String(decoding: result.standardOutput, as: UTF8.self)
        .split(separator: "\n").map(String.init)
      #expect(
        names == [
          "Notebook.examplenotebook/", "Notebook.examplenotebook/empty/",
          "Notebook.examplenotebook/latest", "Notebook.examplenotebook/metadata.json",
          "Notebook.examplenotebook/pages/", "Notebook.examplenotebook/pages/a.txt",
          "Notebook.examplenotebook/pages/b.txt",
        ])
    }
  }
}
