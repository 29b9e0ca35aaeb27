import Folio
import FolioTestSupport
import Foundation
import Synchronization
import Testing

@Suite struct NSFileCoordinatorTests {
  private func makePackage(in folder: URL) throws -> URL {
    let package = folder.appendingPathComponent("Note.examplenotebook")
    try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
    try Data(#"{"title":"T","pageOrder":[]}"#.utf8).write(
      to: package.appendingPathComponent("metadata.json"))
    return package
  }

  @Test func readingAFileOfAPackageWaitsForTheWriterOfThePackage() async throws {
    try await withTemporaryDirectory("coordinator-wait") { folder in
      let package = try makePackage(in: folder)
      let writer = try await PackageLock.acquire(
        .exclusive, on: package, options: LockOptions(timeout: .zero))
      let released = Atomic<Bool>(false)
      // A coordinated access blocks its thread while it waits, as Foundation's does: run it
      // on a thread of its own, not on the tasks' shared pool, which it could starve.
      let reader = Task {
        await withCheckedContinuation { continuation in
          Thread.detachNewThread {
            let coordinator = NSFileCoordinator(
              document: package, lockOptions: LockOptions(timeout: .seconds(120)))
            var error: NSError?
            var sawRelease = false
            coordinator.coordinate(
              readingItemAt: package.appending(path: "metadata.json"), options: [], error: &error
            ) { url in
              sawRelease = released.load(ordering: .relaxed)
              _ = try? Data(contentsOf: url)
            }
            continuation.resume(returning: (sawRelease, error == nil))
          }
        }
      }
      try await Task.sleep(for: .milliseconds(300))
      released.store(true, ordering: .relaxed)
      writer.release()
      let (sawRelease, succeeded) = await reader.value
      #expect(succeeded)
      #expect(sawRelease, "the reader ran before the writer let go")
      // The lock was taken on the package, beside it, not inside it.
      #expect(
        !FileManager.default.fileExists(
          atPath: package.appendingPathComponent(".metadata.json.folio-lock").path))
    }
  }

  @Test func aLockNotHadInTimeFillsTheErrorAndSkipsTheAccessor() async throws {
    try await withTemporaryDirectory("coordinator-timeout") { folder in
      let package = try makePackage(in: folder)
      let reader = try await PackageLock.acquire(
        .shared, on: package, options: LockOptions(timeout: .zero))
      defer { reader.release() }
      let coordinator = NSFileCoordinator(
        document: package, lockOptions: LockOptions(timeout: .milliseconds(200)))
      var error: NSError?
      var called = false
      coordinator.coordinate(writingItemAt: package, options: [], error: &error) { _ in
        called = true
      }
      #expect(!called)
      #expect(error?.domain == NSCocoaErrorDomain)
      #expect(error?.code == CocoaError.Code.fileLocking.rawValue)
      let underlying = error?.userInfo[NSUnderlyingErrorKey] as? PackagingError
      #expect(underlying?.code == .lockTimeout)

      // Readers share: a coordinated read goes ahead while another reader holds the lock.
      var read = false
      coordinator.coordinate(readingItemAt: package.appending(path: "metadata.json")) { _ in
        read = true
      }
      #expect(read)
    }
  }

  @Test func cancellingAWaitingAccessReportsCancellation() async throws {
    try await withTemporaryDirectory("coordinator-cancel") { folder in
      let package = try makePackage(in: folder)
      let writer = try await PackageLock.acquire(
        .exclusive, on: package, options: LockOptions(timeout: .zero))
      defer { writer.release() }
      let coordinator = NSFileCoordinator(
        document: package, lockOptions: LockOptions(timeout: .seconds(60)))
      coordinator.cancel()
      var error: NSError?
      var called = false
      coordinator.coordinate(readingItemAt: package, error: &error) { _ in called = true }
      #expect(!called)
      #expect(error?.code == CocoaError.Code.userCancelled.rawValue)
    }
  }

  @Test func aCoordinatorForNoDocumentLocksEachItemAndIgnoresAMissingErrorPointer() async throws {
    try await withTemporaryDirectory("coordinator-item") { folder in
      let file = folder.appendingPathComponent("notes.txt")
      try Data("x".utf8).write(to: file)
      let coordinator = NSFileCoordinator()
      var contents: Data?
      coordinator.coordinate(writingItemAt: file) { url in
        try? Data("y".utf8).write(to: url)
        contents = try? Data(contentsOf: url)
        // Held: another exclusive lock on the same file is refused meanwhile.
        #expect(throws: PackagingError.self) {
          try PackageLock.acquireBlocking(.exclusive, on: url, options: LockOptions(timeout: .zero))
        }
      }
      #expect(contents == Data("y".utf8))
      #expect(
        try PackageLock.acquireBlocking(.exclusive, on: file, options: LockOptions(timeout: .zero))
          .kind == .exclusive)
    }
  }
}
