import Folio
import FolioTestSupport
import Foundation
import Testing

// `contentType` "the resource's type" through `resourceValues(forKeys: [.contentTypeKey])`:
// https://developer.apple.com/documentation/foundation/urlresourcevalues/contenttype
@Suite struct URLContentTypeTests {
  @Test func filesFoldersAndPackagesHaveTheirTypes() async throws {
    try await withTemporaryDirectory("content-type") { folder in
      let text = folder.appendingPathComponent("notes.txt")
      try Data("n".utf8).write(to: text)
      let bare = folder.appendingPathComponent("README")
      try Data("r".utf8).write(to: bare)
      let plain = folder.appendingPathComponent("Pictures")
      try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
      let bundle = folder.appendingPathComponent("Tool.app")
      try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)

      #expect(try text.resourceValues(forKeys: [.contentTypeKey]).contentType == .plainText)
      #expect(try bare.resourceValues(forKeys: [.contentTypeKey]).contentType == .data)
      #expect(try plain.resourceValues(forKeys: [.contentTypeKey]).contentType == .folder)
      let app = try #require(try bundle.resourceValues(forKeys: [.contentTypeKey]).contentType)
      #expect(app.conforms(to: .package))
    }
  }

  @Test func foundationsOtherValuesComeAlong() async throws {
    try await withTemporaryDirectory("content-type-values") { folder in
      let file = folder.appendingPathComponent("data.json")
      try Data("{}".utf8).write(to: file)
      let values = try file.resourceValues(forKeys: [
        .contentTypeKey, .isDirectoryKey, .fileSizeKey,
      ])
      #expect(values.contentType == .json)
      #expect(values.isDirectory == false)
      #expect(values.fileSize == 2)
      // Without the key, no type is looked up.
      #expect(try file.resourceValues(forKeys: [.isDirectoryKey]).contentType == nil)
    }
  }

  @Test func aMissingItemThrowsNoSuchFile() async throws {
    try await withTemporaryDirectory("content-type-missing") { folder in
      let missing = folder.appendingPathComponent("gone.txt")
      #expect(throws: CocoaError.self) {
        _ = try missing.resourceValues(forKeys: [.contentTypeKey])
      }
      do {
        _ = try missing.resourceValues(forKeys: [.contentTypeKey])
      } catch let error as CocoaError {
        #expect(error.code == .fileReadNoSuchFile)
      }
    }
  }
}
