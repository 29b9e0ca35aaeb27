import FolioTestSupport
import Foundation
import ProgressReporting
import Testing

@testable import Archives

@Suite struct ArchiveWriterTests {
  @Test func unitsOfBytesPlusEntriesFillTheReporterExactly() throws {
    let folder = try makeTemporaryDirectory("writer-units")
    defer { removeTree(folder) }
    let source = folder.appendingPathComponent("big.txt")
    let text = Data(String(repeating: "chunked text ", count: 40_000).utf8)  // several chunks
    try text.write(to: source)
    let root = ProgressManager(totalCount: 1)
    let reporter = root.subprogress(assigningCount: 1).start(
      totalCount: text.count + 5 + 4)
    reporter.totalFileCount += 2
    reporter.totalByteCount += UInt64(text.count + 5)
    try withArchiveWriter(
      at: folder.appendingPathComponent("w.zip"), format: .zip, progress: reporter
    ) { writer in
      try writer.addDirectory("W")
      try writer.addFile("W/big.txt", contentsOf: source)
      try writer.addFile("W/small.txt", data: Data("hello".utf8))
      try writer.addSymbolicLink("W/link", target: "big.txt")
      #expect(writer.entryCount == 4)
      #expect(writer.dataByteCount == Int64(text.count + 5))
    }
    #expect(reporter.fractionCompleted == 1)
    #expect(root.reporter.snapshot.completedFileCount == 2)
    #expect(root.reporter.snapshot.completedByteCount == UInt64(text.count + 5))
    let test = try runProcess("unzip", ["-t", folder.appendingPathComponent("w.zip").path])
    #expect(test.status == 0)
  }

  @Test func aSymbolicLinkIsNotReadAsAFile() throws {
    let folder = try makeTemporaryDirectory("writer-link")
    defer { removeTree(folder) }
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("link").path, withDestinationPath: "/etc/passwd")
    #expect(throws: PackagingError.self) {
      try withArchiveWriter(at: folder.appendingPathComponent("w.tar"), format: .tar) { writer in
        try writer.addFile("link", contentsOf: folder.appendingPathComponent("link"))
      }
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("w.tar").path))
  }
}
