import Archives
import FolioTestSupport
import Foundation
import Synchronization
import Testing

@Suite struct PackageLockTests {
  @Test func sharedLocksCoexistAndExcludeWriters() async throws {
    try await withTemporaryDirectory("lock-shared") { folder in
      let package = folder.appendingPathComponent("Note.examplenotebook")
      let first = try await PackageLock.acquire(
        .shared, on: package, options: LockOptions(timeout: .zero))
      let second = try await PackageLock.acquire(
        .shared, on: package, options: LockOptions(timeout: .zero))
      let error = await #expect(throws: PackagingError.self) {
        _ = try await PackageLock.acquire(
          .exclusive, on: package, options: LockOptions(timeout: .milliseconds(120)))
      }
      #expect(error?.code == .lockTimeout)
      #expect(error?.message.contains(package.path) == true)
      first.release()
      second.release()
      let writer = try await PackageLock.acquire(
        .exclusive, on: package, options: LockOptions(timeout: .zero))
      writer.release()
    }
  }

  /// Issue 10 item 3: every spelling of a package (a symbolic link to it, `./X/`,
  /// `sub/../X`, a link to its folder) shares one lock.
  @Test func everySpellingOfAPackageSharesOneLock() async throws {
    try await withTemporaryDirectory("lock-spellings") { folder in
      let package = folder.appendingPathComponent("X")
      try FileManager.default.createDirectory(
        at: package.appendingPathComponent("sub"), withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent("Xlink").path, withDestinationPath: "X")
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent("here").path, withDestinationPath: ".")
      let spellings = [
        folder.appendingPathComponent("Xlink"), URL(fileURLWithPath: package.path + "/"),
        URL(fileURLWithPath: folder.path + "/./X"), URL(fileURLWithPath: package.path + "/sub/.."),
        folder.appendingPathComponent("here/X"),
      ]
      let reader = try await PackageLock.acquire(
        .shared, on: package, options: LockOptions(timeout: .zero))
      for spelling in spellings {
        #expect(PackageLock.lockFile(for: spelling) == PackageLock.lockFile(for: package))
        let error = await #expect(throws: PackagingError.self, "\(spelling.path)") {
          _ = try await PackageLock.acquire(
            .exclusive, on: spelling, options: LockOptions(timeout: .zero))
        }
        #expect(error?.code == .lockTimeout)
      }
      reader.release()
      // A destination not made yet is keyed by its resolved folder and its name.
      let future = folder.appendingPathComponent("here/New")
      #expect(PackageLock.lockFile(for: future) == folder.appendingPathComponent(".New.folio-lock"))
      let writer = try await PackageLock.acquire(
        .exclusive, on: future, options: LockOptions(timeout: .zero))
      await #expect(throws: PackagingError.self) {
        _ = try await PackageLock.acquire(
          .shared, on: folder.appendingPathComponent("New"), options: LockOptions(timeout: .zero))
      }
      writer.release()
    }
  }

  @Test func waitingIsAnnouncedOnceThenTimesOut() async throws {
    try await withTemporaryDirectory("lock-wait") { folder in
      let package = folder.appendingPathComponent("Note.examplenotebook")
      let holder = try await PackageLock.acquire(
        .exclusive, on: package, options: LockOptions(timeout: .zero))
      let waits = Mutex<[LockWait]>([])
      let options = LockOptions(timeout: .milliseconds(200)) { wait in
        waits.withLock { $0.append(wait) }
      }
      await #expect(throws: PackagingError.self) {
        _ = try await PackageLock.acquire(.shared, on: package, options: options)
      }
      let seen = waits.withLock { $0 }
      #expect(
        seen == [LockWait(kind: .shared, package: package, timeout: .milliseconds(200))])
      holder.release()
    }
  }

  @Test func lastHolderRemovesTheLockFile() async throws {
    try await withTemporaryDirectory("lock-file") { folder in
      let package = folder.appendingPathComponent("Note.examplenotebook")
      let lockFile = PackageLock.lockFile(for: package)
      #expect(lockFile.lastPathComponent == ".Note.examplenotebook.folio-lock")
      try await PackageLock.withLock(.exclusive, on: package) {
        #expect(FileManager.default.fileExists(atPath: lockFile.path))
      }
      #expect(!FileManager.default.fileExists(atPath: lockFile.path))
    }
  }

  /// Another process (python's `fcntl.flock`) holds the lock until our waiting
  /// announcement tells it to let go; we get the lock only after it did.
  @Test func twoProcessesSerialise() async throws {
    try await withTemporaryDirectory("lock-processes") { folder in
      let package = folder.appendingPathComponent("Note.examplenotebook")
      let lockFile = PackageLock.lockFile(for: package)
      let ready = folder.appendingPathComponent("ready")
      let released = folder.appendingPathComponent("released")
      let go = folder.appendingPathComponent("go")
      let script = """
        import fcntl, os, time, sys
        fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(fd, fcntl.LOCK_EX)
        open(sys.argv[2], 'w').close()
        for _ in range(60000):  # up to 10 minutes: on a loaded machine the waiter runs late
            if os.path.exists(sys.argv[4]):
                break
            time.sleep(0.01)
        open(sys.argv[3], 'w').close()
        fcntl.flock(fd, fcntl.LOCK_UN)
        """
      let other = try ChildProcess(
        "python3", ["-c", script, lockFile.path, ready.path, released.path, go.path])
      while !FileManager.default.fileExists(atPath: ready.path) {
        try await Task.sleep(for: .milliseconds(10))
      }
      let goPath = go.path
      let options = LockOptions(timeout: .seconds(120)) { _ in
        _ = FileManager.default.createFile(atPath: goPath, contents: nil)
      }
      let lock = try await PackageLock.acquire(.exclusive, on: package, options: options)
      // We waited (the other process let go only after our announcement) and hold
      // the lock only after it let go.
      #expect(FileManager.default.fileExists(atPath: go.path))
      #expect(FileManager.default.fileExists(atPath: released.path))
      lock.release()
      other.wait()
    }
  }

  @Test func expansionsOfOneDestinationSerialise() async throws {
    try await withTemporaryDirectory("lock-expand") { folder in
      let archive = try makeHostileArchive("zip-many", in: folder)
      let destination = folder.appendingPathComponent("dest")
      let holder = try await PackageLock.acquire(
        .shared, on: destination, options: LockOptions(timeout: .zero))
      let error = await #expect(throws: PackagingError.self) {
        _ = try await Expander.expand(
          archive, into: destination, lockOptions: LockOptions(timeout: .milliseconds(100)),
          progress: .untracked())
      }
      #expect(error?.code == .lockTimeout)
      #expect(!FileManager.default.fileExists(atPath: destination.path))
      holder.release()
      _ = try await Expander.expand(archive, into: destination, progress: .untracked())
      #expect(
        FileManager.default.fileExists(atPath: destination.appendingPathComponent("f0.txt").path))
    }
  }
}
