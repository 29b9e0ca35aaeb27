import Archives
import Documents
import FolioTestSupport
import Foundation
import Testing

/// `FileWrapper` fails as Apple's does: with Cocoa errors an app can catch by code
/// (https://developer.apple.com/documentation/foundation/filewrapper/init(url:options:),
/// https://developer.apple.com/documentation/foundation/cocoaerror/code/filereadnosuchfile),
/// carrying the URL and path, with Folio's error naming the item underneath.
@Suite struct FileWrapperCocoaErrorTests {
  @Test func readingAMissingItemThrowsFileReadNoSuchFileWithTheURL() throws {
    let folder = try makeTemporaryDirectory("wrapper-missing")
    defer { removeTree(folder) }
    let missing = folder.appendingPathComponent("Drawing.sketchbook")
    do {
      _ = try FileWrapper(url: missing, options: .immediate)
      Issue.record("reading a missing package succeeded")
    } catch CocoaError.fileReadNoSuchFile {
      // What apps write: `catch CocoaError.fileReadNoSuchFile`.
    } catch {
      Issue.record("unexpected \(error)")
    }
    let error = try #require(Self.cocoaError { _ = try FileWrapper(url: missing) })
    #expect(error.code == .fileReadNoSuchFile)
    #expect(error.url == missing)
    #expect(error.filePath == missing.path)
    let folio = try #require(error.underlying as? PackagingError)
    #expect(folio.code == .fileVanished)
    #expect(folio.message.contains(missing.path))
    let bridged = error as NSError
    #expect(bridged.domain == NSCocoaErrorDomain)
    #expect(bridged.code == 260)
    #expect(bridged.userInfo[NSURLErrorKey] as? URL == missing)
    #expect(bridged.userInfo[NSFilePathErrorKey] as? String == missing.path)
    #expect(bridged.userInfo[NSUnderlyingErrorKey] is PackagingError)
    #expect(
      error.localizedDescription
        == "The file “Drawing.sketchbook” couldn’t be opened because there is no such file.")
  }

  @Test func rereadingAMissingItemThrowsTheSameAndKeepsTheWrapper() throws {
    let folder = try makeTemporaryDirectory("wrapper-reread")
    defer { removeTree(folder) }
    let file = folder.appendingPathComponent("Info.json")
    try Data("{}".utf8).write(to: file)
    let wrapper = try FileWrapper(url: file)
    try FileManager.default.removeItem(at: file)
    let error = try #require(Self.cocoaError { try wrapper.read(from: file) })
    #expect(error.code == .fileReadNoSuchFile)
    #expect(wrapper.isRegularFile)
  }

  @Test(.enabled(if: getuid() != 0, "root reads every file whatever its mode"))
  func readingAFolderWithoutPermissionThrowsFileReadNoPermission() throws {
    let folder = try makeTemporaryDirectory("wrapper-permission")
    defer { removeTree(folder) }
    let closed = folder.appendingPathComponent("Closed.sketchbook")
    try FileManager.default.createDirectory(at: closed, withIntermediateDirectories: true)
    chmod(closed.path, 0)
    let error = try #require(Self.cocoaError { _ = try FileWrapper(url: closed) })
    #expect(error.code == .fileReadNoPermission)
  }

  @Test func readingAPipeThrowsFileReadUnknown() throws {
    let folder = try makeTemporaryDirectory("wrapper-pipe")
    defer { removeTree(folder) }
    let pipe = folder.appendingPathComponent("pipe")
    #expect(mkfifo(pipe.path, 0o600) == 0)
    let error = try #require(Self.cocoaError { _ = try FileWrapper(url: pipe) })
    #expect(error.code == .fileReadUnknown)
    #expect((error.underlying as? PackagingError)?.code == .fileUnreadable)
  }

  @Test func writingAFolderOverAnExistingOneThrowsFileWriteFileExists() throws {
    let folder = try makeTemporaryDirectory("wrapper-exists")
    defer { removeTree(folder) }
    let target = folder.appendingPathComponent("Drawing.sketchbook")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    let wrapper = FileWrapper(directoryWithFileWrappers: [
      "Info.json": FileWrapper(regularFileWithContents: Data("{}".utf8))
    ])
    let error = try #require(
      Self.cocoaError { try wrapper.write(to: target, options: [], originalContentsURL: nil) })
    #expect(error.code == .fileWriteFileExists)
    #expect(error.url == target)
    #expect((error.underlying as? PackagingError)?.code == .fileExists)
  }

  @Test func writingIntoAMissingFolderThrowsFileNoSuchFile() throws {
    let folder = try makeTemporaryDirectory("wrapper-no-folder")
    defer { removeTree(folder) }
    let target = folder.appendingPathComponent("absent/Info.json")
    let wrapper = FileWrapper(regularFileWithContents: Data("{}".utf8))
    let error = try #require(
      Self.cocoaError { try wrapper.write(to: target, options: [], originalContentsURL: nil) })
    #expect(error.code == .fileNoSuchFile)
    #expect(error.filePath == target.path)
  }

  /// The Cocoa error `body` throws, or `nil` (recorded) for anything else.
  private static func cocoaError(_ body: () throws -> Void) -> CocoaError? {
    do {
      try body()
      Issue.record("no error")
    } catch let error as CocoaError {
      return error
    } catch {
      Issue.record("not a Cocoa error: \(error)")
    }
    return nil
  }
}
