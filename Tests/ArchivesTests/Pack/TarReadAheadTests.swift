import FolioTestSupport
import Foundation
import Testing

@testable import Archives

/// Tar with several jobs reads small files on other threads, after they were added.
///
/// A file that fails then fails the archive whole, naming it (the first in archive
/// order), and nothing reaches the destination.
@Suite struct TarReadAheadTests {
  @Test func aFileRemovedBeforeItsBatchWasReadFailsTheArchiveNamingTheFirst() async throws {
    try await withTemporaryDirectory("tar-read-ahead") { folder in
      var sources: [URL] = []
      for name in ["a.txt", "b.txt", "c.txt", "d.txt"] {
        let file = folder.appendingPathComponent(name)
        try Data("\(name)\n".utf8).write(to: file)
        sources.append(file)
      }
      let archive = folder.appendingPathComponent("out.tar")
      let previous = Data("keep me".utf8)
      try previous.write(to: archive)
      #expect {
        try withArchiveWriter(
          at: archive, format: .tar, options: ArchiveWriterOptions(jobs: 2)
        ) { writer in
          for source in sources {
            try writer.addFile(source.lastPathComponent, contentsOf: source)
          }
          // Added, not yet read: the batch is handed to a reader only when full or flushed.
          try FileManager.default.removeItem(at: sources[1])
          try FileManager.default.removeItem(at: sources[3])
          try writer.addDirectory("folder")
        }
      } throws: { error in
        let error = error as? PackagingError
        return error?.code == .fileSystem && error?.message.contains("b.txt") == true
          && error?.message.contains("d.txt") == false
      }
      #expect(try Data(contentsOf: archive) == previous)
      #expect(PackTestTrees.temporaries(in: folder) == [])
    }
  }

  @Test func withOneJobTheFileIsReadWhenAdded() async throws {
    try await withTemporaryDirectory("tar-one-job") { folder in
      let source = folder.appendingPathComponent("a.txt")
      try Data("kept\n".utf8).write(to: source)
      let archive = folder.appendingPathComponent("out.tar")
      try withArchiveWriter(at: archive, format: .tar, options: ArchiveWriterOptions(jobs: 1)) {
        writer in
        try writer.addFile("a.txt", contentsOf: source)
        try FileManager.default.removeItem(at: source)
      }
      let listing = try runProcess("bsdtar", ["-xOf", archive.path, "a.txt"])
      #expect(listing.status == 0)
      #expect(listing.outputText == "kept\n")
    }
  }
}
