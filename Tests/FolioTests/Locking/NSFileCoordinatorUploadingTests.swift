import Folio
import FolioTestSupport
import Foundation
import Synchronization
import Testing

// Foundation's `forUploading`: for a directory, the coordinator "creates a new file
// containing a zip archive of the directory contents in a temporary location", hands that
// to the accessor, and removes it when the accessor returns:
// https://developer.apple.com/documentation/foundation/nsfilecoordinator/readingoptions/foruploading
@Suite struct NSFileCoordinatorUploadingTests {
  private func makePackage(in folder: URL) throws -> URL {
    let package = folder.appendingPathComponent("Sketch.sketchbook")
    let strokes = package.appendingPathComponent("strokes")
    try FileManager.default.createDirectory(at: strokes, withIntermediateDirectories: true)
    try Data(#"{"title":"S"}"#.utf8).write(to: package.appendingPathComponent("Info.json"))
    try Data("1,2,3\n".utf8).write(to: strokes.appendingPathComponent("0001.csv"))
    return package
  }

  /// The names in a zip archive, as Python's zipfile lists them.
  private func zipNames(_ archive: URL) throws -> [String] {
    let result = try runProcess(
      "python3",
      [
        "-c",
        "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; "
          + "print('\\n'.join(sorted(z.namelist())))",
        archive.path,
      ])
    guard result.status == 0 else { return [] }
    return String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n").map(
      String.init)
  }

  @Test(.enabled(if: programExists("python3")))
  func readingAPackageForUploadingHandsOverAZipOfItRemovedAfterwards() async throws {
    try await withTemporaryDirectory("coordinator-upload") { folder in
      let package = try makePackage(in: folder)
      var seen: URL?
      var names: [String] = []
      var error: NSError?
      NSFileCoordinator().coordinate(
        readingItemAt: package, options: .forUploading, error: &error
      ) { url in
        seen = url
        names = (try? zipNames(url)) ?? []
      }
      #expect(error == nil)
      let url = try #require(seen)
      #expect(url.lastPathComponent == "Sketch.sketchbook.zip")
      #expect(!url.path.hasPrefix(package.path))
      #expect(
        names == [
          "Sketch.sketchbook/", "Sketch.sketchbook/Info.json", "Sketch.sketchbook/strokes/",
          "Sketch.sketchbook/strokes/0001.csv",
        ])
      #expect(!FileManager.default.fileExists(atPath: url.path))
      #expect(!FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path))
      // The package itself is untouched.
      #expect(
        FileManager.default.fileExists(atPath: package.appendingPathComponent("Info.json").path))
    }
  }

  @Test func readingAFileForUploadingHandsOverTheFileItself() async throws {
    try await withTemporaryDirectory("coordinator-upload-file") { folder in
      let file = folder.appendingPathComponent("note.txt")
      try Data("n".utf8).write(to: file)
      var seen: URL?
      NSFileCoordinator().coordinate(readingItemAt: file, options: .forUploading, error: nil) {
        seen = $0
      }
      #expect(seen == file)
    }
  }

  // https://developer.apple.com/documentation/foundation/nsfilecoordinator/coordinate(with:queue:byaccessor:)
  @Test(.enabled(if: programExists("python3")))
  func intentsRunTheAccessorOnTheQueueWithEachIntentsURL() async throws {
    try await withTemporaryDirectory("coordinator-intents") { folder in
      let package = try makePackage(in: folder)
      let output = folder.appendingPathComponent("upload.zip")
      let reading = NSFileAccessIntent.readingIntent(with: package, options: .forUploading)
      let writing = NSFileAccessIntent.writingIntent(with: output)
      let queue = OperationQueue()
      let failure: (any Error)? = await withCheckedContinuation { continuation in
        NSFileCoordinator().coordinate(with: [reading, writing], queue: queue) { error in
          if error == nil {
            try? FileManager.default.copyItem(at: reading.url, to: writing.url)
          }
          continuation.resume(returning: error)
        }
      }
      #expect(failure == nil)
      #expect(reading.url == package)
      #expect(try zipNames(output).contains("Sketch.sketchbook/Info.json"))
    }
  }

  @Test func anIntentWhoseLockIsHeldGetsTheErrorAndRunsNothingElse() async throws {
    try await withTemporaryDirectory("coordinator-intents-held") { folder in
      let package = try makePackage(in: folder)
      let writer = try await PackageLock.acquire(
        .exclusive, on: package, options: LockOptions(timeout: .zero))
      defer { writer.release() }
      let coordinator = NSFileCoordinator()
      coordinator.lockOptions = LockOptions(timeout: .zero)
      let failure: (any Error)? = await withCheckedContinuation { continuation in
        coordinator.coordinate(
          with: [NSFileAccessIntent.readingIntent(with: package)], queue: OperationQueue()
        ) { error in
          continuation.resume(returning: error)
        }
      }
      let error = try #require(failure) as NSError
      #expect(error.domain == NSCocoaErrorDomain)
      #expect(error.code == CocoaError.Code.fileLocking.rawValue)
    }
  }
}
