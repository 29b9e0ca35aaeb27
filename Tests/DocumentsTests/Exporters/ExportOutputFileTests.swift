import FolioSystem
import FolioTestSupport
import Foundation
import Glibc
import Testing

@testable import Documents

@Suite struct ExportOutputFileTests {
  @Test func writesEveryRegionOfTheBytesInOrder() async throws {
    try await withTemporaryDirectory("output-file") { folder in
      let url = folder.appendingPathComponent("out.bin")
      let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      try #require(descriptor >= 0)
      defer { close(descriptor) }
      let file = ExportOutputFile(fileDescriptor: descriptor, displayName: "out.bin")
      // DispatchData of two regions, then Data and an array: every region, in order.
      var split = DispatchData(bytes: UnsafeRawBufferPointer(start: nil, count: 0))
      for part in ["first ", "second "] {
        part.utf8CString.dropLast().withUnsafeBytes { split.append($0) }
      }
      try file.write(contentsOf: split)
      try file.write(contentsOf: Data("third ".utf8))
      try file.write(contentsOf: Array("fourth".utf8))
      #expect(try Data(contentsOf: url) == Data("first second third fourth".utf8))
    }
  }

  @Test func aFailedWriteNamesTheFileAndTheSystemsError() throws {
    let descriptor = open("/dev/full", O_WRONLY | O_CLOEXEC)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let file = ExportOutputFile(fileDescriptor: descriptor, displayName: "Notes.txt")
    let error = #expect(throws: ExportError.self) {
      try file.write(contentsOf: Data("x".utf8))
    }
    #expect(error?.code == .writeFailed)
    #expect(error?.message.contains("'Notes.txt'") == true)
    #expect(error?.cause as? SystemError == SystemError(errno: ENOSPC))
  }
}
