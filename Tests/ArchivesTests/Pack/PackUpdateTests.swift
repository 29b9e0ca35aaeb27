import Archives
import Documents
import FolioSystem
import FolioTestSupport
import Foundation
import Glibc
import ProgressReporting
import Testing

/// `pack --update` (issue 33 §3): an earlier zip's unchanged entries are copied, the result
/// is byte-identical to a fresh reproducible pack, and the peers read it.
@Suite struct PackUpdateTests {
  /// A package of small text pages, one large text file and one large random file (the
  /// large ones take the chunked path), times set to whole seconds.
  private func makePackage(in folder: URL) throws -> URL {
    let package = folder.appendingPathComponent("Doc.pkg")
    let pages = package.appendingPathComponent("pages")
    try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
    for index in 1...40 {
      try Data(String(repeating: "page \(index) ", count: index * 20).utf8)
        .write(to: pages.appendingPathComponent("\(index).txt"))
    }
    try Data(String(repeating: "large text ", count: 40_000).utf8)
      .write(to: package.appendingPathComponent("large.txt"))
    var generator = SystemRandomNumberGenerator()
    try Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
      .write(to: package.appendingPathComponent("random.bin"))
    try FileManager.default.createSymbolicLink(
      atPath: package.appendingPathComponent("first").path, withDestinationPath: "pages/1.txt")
    return package
  }

  private func pack(_ package: URL, to output: URL, previous: URL?, checksum: Bool = false)
    throws -> PackResult
  {
    var options = PackOptions(format: .zip, reproducible: true)
    options.replacePolicy = .replace
    options.previousArchive = previous
    options.reuseChecksBytes = checksum
    return try Packer.packSynchronously(package, to: output, options: options)
  }

  @Test func anUpdateAfterChangesIsByteIdenticalToAFreshPack() async throws {
    try await withTemporaryDirectory("pack-update") { folder in
      let package = try makePackage(in: folder)
      let archive = folder.appendingPathComponent("Doc.zip")
      let first = try pack(package, to: archive, previous: archive)
      #expect(first.reusedEntryCount == 0, "no OUT yet: a fresh pack")
      // Changed, removed, added, and a mode change that keeps the bytes.
      let pages = package.appendingPathComponent("pages")
      try Data("changed".utf8).write(to: pages.appendingPathComponent("7.txt"))
      try FileManager.default.removeItem(at: pages.appendingPathComponent("9.txt"))
      try Data("new".utf8).write(to: pages.appendingPathComponent("new.txt"))
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o600], ofItemAtPath: pages.appendingPathComponent("3.txt").path)
      let updated = try pack(package, to: archive, previous: archive)
      #expect(updated.reusedEntryCount == first.fileCount - 3, "all but 7, 9 and 3 reused")
      #expect(updated.fileCount == first.fileCount)
      let fresh = folder.appendingPathComponent("fresh.zip")
      _ = try pack(package, to: fresh, previous: nil)
      #expect(try runProcess("cmp", [archive.path, fresh.path]).status == 0)
      #expect(try ArchiveVerifier.compare(.file(archive), against: package) == [])
      if programExists("unzip") {
        let tested = try runProcess("unzip", ["-tqq", archive.path])
        #expect(tested.status == 0, "\(tested.outputText)\(tested.errorText)")
      }
    }
  }

  @Test func aChangeThatKeepsSizeAndTimeIsCaughtOnlyWithChecksum() async throws {
    try await withTemporaryDirectory("pack-update-crc") { folder in
      let package = try makePackage(in: folder)
      let archive = folder.appendingPathComponent("Doc.zip")
      _ = try pack(package, to: archive, previous: nil)
      let page = package.appendingPathComponent("pages/2.txt")
      let time = try #require(
        try FileManager.default.attributesOfItem(atPath: page.path)[.modificationDate] as? Date)
      var bytes = try Data(contentsOf: page)
      bytes[0] = UInt8(ascii: "P")
      try bytes.write(to: page)
      try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: page.path)
      let trusting = try pack(package, to: archive, previous: archive)
      #expect(trusting.reusedEntryCount == trusting.fileCount, "size, time and mode match")
      let stale = try ArchiveVerifier.compare(.file(archive), against: package)
      #expect(stale.map(\.path) == ["pages/2.txt"], "\(stale)")
      let checked = try pack(package, to: archive, previous: archive, checksum: true)
      #expect(checked.reusedEntryCount == checked.fileCount - 1)
      #expect(try ArchiveVerifier.compare(.file(archive), against: package) == [])
    }
  }

  /// Names that differ only by case are found by a walk of the tree after the update's
  /// handed-over one (which keeps no entries): reported as a fresh pack reports them, in
  /// the same bytes.
  @Test func anUpdateReportsNamesThatDifferOnlyByCaseAsAFreshPackDoes() async throws {
    try await withTemporaryDirectory("pack-update-collision") { folder in
      let package = try makePackage(in: folder)
      let pages = package.appendingPathComponent("pages")
      try Data("lower".utf8).write(to: pages.appendingPathComponent("note.txt"))
      try Data("upper".utf8).write(to: pages.appendingPathComponent("NOTE.txt"))
      let archive = folder.appendingPathComponent("Doc.zip")
      let first = try pack(package, to: archive, previous: nil)
      try Data("page 3 changed".utf8).write(to: pages.appendingPathComponent("3.txt"))

      let updated = try pack(package, to: archive, previous: archive)
      let fresh = folder.appendingPathComponent("Fresh.zip")
      let afresh = try pack(package, to: fresh, previous: nil)
      #expect(updated.reusedEntryCount == updated.fileCount - 1)
      #expect(updated.nameCollisions.count == 1)
      #expect(updated.nameCollisions == afresh.nameCollisions)
      #expect(updated.nameCollisions == first.nameCollisions)
      #expect(try Data(contentsOf: archive) == Data(contentsOf: fresh))
    }
  }

  /// Files with attributes have their AppleDouble entries right after them in the zip: an
  /// update meets both in the earlier archive's order and is still the fresh pack's bytes.
  @Test(.enabled(if: ExtendedAttributeTestTree.isSupported, "needs user xattrs"))
  func anUpdateWithAppleDoubleEntriesIsByteIdenticalToAFreshPack() async throws {
    try await withTemporaryDirectory("pack-update-xattr") { folder in
      let package = try makePackage(in: folder)
      for index in [2, 5, 6] {
        try ExtendedAttributes.set(
          Array("user.tag".utf8), to: Array("page \(index)".utf8),
          atPath: package.appendingPathComponent("pages/\(index).txt").path)
      }
      let archive = folder.appendingPathComponent("Doc.zip")
      let first = try pack(package, to: archive, previous: nil)
      try Data("changed".utf8).write(to: package.appendingPathComponent("pages/4.txt"))
      let updated = try pack(package, to: archive, previous: archive)
      // Every file but 4.txt, and the three AppleDouble entries.
      #expect(updated.reusedEntryCount == first.fileCount - 1 + 3)
      let fresh = folder.appendingPathComponent("fresh.zip")
      _ = try pack(package, to: fresh, previous: nil)
      #expect(try runProcess("cmp", [archive.path, fresh.path]).status == 0)
    }
  }

  /// An earlier zip whose entries come in another order (Info-ZIP's, in the order the folder
  /// lists) is still reused, entry by entry, and the result holds the tree.
  @Test(.enabled(if: programExists("zip"), "needs Info-ZIP zip"))
  func anEarlierZipInAnotherOrderIsReused() async throws {
    try await withTemporaryDirectory("pack-update-order") { folder in
      let package = try makePackage(in: folder)
      let archive = folder.appendingPathComponent("Doc.zip")
      let zipped = try runProcess(
        "zip", ["-q", "-r", "-y", archive.path, package.lastPathComponent], in: folder)
      #expect(zipped.status == 0, "\(zipped.errorText)")
      let updated = try pack(package, to: archive, previous: archive)
      #expect(updated.reusedEntryCount == updated.fileCount)
      #expect(try ArchiveVerifier.compare(.file(archive), against: package) == [])
      let tested = try runProcess("unzip", ["-tqq", archive.path])
      #expect(tested.status == 0, "\(tested.outputText)\(tested.errorText)")
    }
  }

  @Test(arguments: [1, 4])
  func anUpdateIsTheFreshPacksBytesWhateverTheJobs(jobs: Int) async throws {
    try await withTemporaryDirectory("pack-update-jobs") { folder in
      let package = try makePackage(in: folder)
      let archive = folder.appendingPathComponent("Doc.zip")
      _ = try pack(package, to: archive, previous: nil)
      try Data("changed".utf8).write(to: package.appendingPathComponent("pages/12.txt"))
      var options = PackOptions(format: .zip, reproducible: true, jobs: jobs)
      options.replacePolicy = .update
      let updated = try Packer.packSynchronously(package, to: archive, options: options)
      #expect(updated.reusedEntryCount == updated.fileCount - 1)
      let fresh = folder.appendingPathComponent("fresh.zip")
      _ = try pack(package, to: fresh, previous: nil)
      #expect(try runProcess("cmp", [archive.path, fresh.path]).status == 0)
    }
  }

  /// The walk runs beside the writer: what it cannot pack still fails the update, naming
  /// the path, and the earlier archive stays as it was.
  @Test func anUnpackableFileFailsTheUpdateAndKeepsTheEarlierArchive() async throws {
    try await withTemporaryDirectory("pack-update-fifo") { folder in
      let package = try makePackage(in: folder)
      let archive = folder.appendingPathComponent("Doc.zip")
      _ = try pack(package, to: archive, previous: nil)
      let before = try Data(contentsOf: archive)
      let fifo = package.appendingPathComponent("pages/zz.fifo").path
      try #require(mkfifo(fifo, 0o644) == 0)
      var options = PackOptions(format: .zip, reproducible: true)
      options.replacePolicy = .update
      let error = try #require(throws: PackagingError.self) {
        try Packer.packSynchronously(package, to: archive, options: options)
      }
      #expect(error.code == .unsupportedFileType)
      #expect(error.message.contains(fifo), "\(error.message)")
      #expect(try Data(contentsOf: archive) == before)
      #expect(PackTestTrees.temporaries(in: folder) == [])
    }
  }

  /// An update's totals are known only once its walk ends: until then the progress has no
  /// total, never one its entries pass, and it finishes once, complete.
  @Test func anUpdatesProgressEndsAtItsTotalsAndFinishesOnce() async throws {
    try await withTemporaryDirectory("pack-update-progress") { folder in
      let package = try makePackage(in: folder)
      let archive = folder.appendingPathComponent("Doc.zip")
      let first = try pack(package, to: archive, previous: nil)
      try Data("changed".utf8).write(to: package.appendingPathComponent("pages/5.txt"))
      let root = ProgressManager(totalCount: 1)
      let watcher = PackerProgressTests.recordEvents(of: root)
      var options = PackOptions(format: .zip, reproducible: true)
      options.replacePolicy = .update
      let result = try await Packer.pack(
        package, to: archive, options: options, progress: root.subprogress(assigningCount: 1))
      let seen = await watcher.value
      #expect(result.reusedEntryCount == first.fileCount - 1)
      var finished: [ProgressSnapshot] = []
      var (filesStarted, filesFinished) = (0, 0)
      for event in seen {
        switch event {
        case .update(let snapshot):
          #expect(snapshot.fractionCompleted <= 1)
          #expect(finished.isEmpty, "an update after the end")
        case .finished(let snapshot): finished.append(snapshot)
        case .fileStarted: filesStarted += 1
        case .fileFinished: filesFinished += 1
        }
      }
      // An observer is told of every file, reused or not.
      #expect(filesStarted == result.fileCount)
      #expect(filesFinished == result.fileCount)
      #expect(finished.count == 1)
      #expect(finished.first?.fractionCompleted == 1)
      #expect(finished.first?.totalFileCount == result.fileCount)
      #expect(finished.first?.completedFileCount == result.fileCount)
      #expect(finished.first?.completedByteCount == UInt64(result.byteCount))
    }
  }

  /// With no observer, a run of reused files is counted at its end rather than file by
  /// file: the counts come out the same.
  @Test func anUnobservedUpdateCountsEveryFile() async throws {
    try await withTemporaryDirectory("pack-update-unobserved") { folder in
      let package = try makePackage(in: folder)
      let archive = folder.appendingPathComponent("Doc.zip")
      let first = try pack(package, to: archive, previous: nil)
      try Data("changed".utf8).write(to: package.appendingPathComponent("pages/5.txt"))
      let root = ProgressManager(totalCount: 1)
      var options = PackOptions(format: .zip, reproducible: true)
      options.replacePolicy = .update
      let result = try await Packer.pack(
        package, to: archive, options: options, progress: root.subprogress(assigningCount: 1))
      #expect(result.reusedEntryCount == first.fileCount - 1)
      #expect(root.summary(of: \.completedFileCount) == result.fileCount)
      #expect(root.summary(of: \.totalFileCount) == result.fileCount)
      #expect(root.summary(of: \.completedByteCount) == UInt64(result.byteCount))
      #expect(root.fractionCompleted == 1)
    }
  }

  @Test func tarIsRefusedNamingTheArchive() async throws {
    try await withTemporaryDirectory("pack-update-tar") { folder in
      let package = try makePackage(in: folder)
      let archive = folder.appendingPathComponent("Doc.tar")
      var options = PackOptions(format: .tar)
      options.previousArchive = archive
      let error = #expect(throws: PackagingError.self) {
        _ = try Packer.packSynchronously(package, to: archive, options: options)
      }
      #expect(error?.code == .updateNeedsZip)
      #expect(!FileManager.default.fileExists(atPath: archive.path))
    }
  }

  @Test func aDamagedEarlierArchiveIsRefusedAndLeftAsItWas() async throws {
    try await withTemporaryDirectory("pack-update-bad") { folder in
      let package = try makePackage(in: folder)
      let archive = folder.appendingPathComponent("Doc.zip")
      try Data("not a zip at all".utf8).write(to: archive)
      let error = #expect(throws: PackagingError.self) {
        _ = try pack(package, to: archive, previous: archive)
      }
      #expect(error?.message.contains(archive.path) == true)
      #expect(try Data(contentsOf: archive) == Data("not a zip at all".utf8))
    }
  }

  /// The library's path: a wrapper read from disk and written with its earlier archive.
  @Test func aFileWrapperWritesReusingItsEarlierArchive() async throws {
    try await withTemporaryDirectory("wrapper-update") { folder in
      let package = try makePackage(in: folder)
      let archive = folder.appendingPathComponent("Doc.zip")
      let options = PackOptions(format: .zip, reproducible: true)
      let wrapper = try FileWrapper(url: package, options: .immediate)
      try wrapper.write(toArchiveAt: archive, previous: nil, options: options)
      let first = try Data(contentsOf: archive)
      try wrapper.write(toArchiveAt: archive, previous: archive, options: options)
      #expect(try Data(contentsOf: archive) == first)
      #expect(try ArchiveVerifier.compare(.file(archive), against: package) == [])
    }
  }

  /// Whether a descriptor of this process still holds the file that was at `path` before
  /// it was replaced (`/proc/self/fd` names it "PATH (deleted)"), waiting up to `seconds`
  /// for a close on another thread.
  private static func holdsReplacedFile(at path: String, waiting seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      let descriptors =
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
      let held = descriptors.contains { descriptor in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"))
          == path + " (deleted)"
      }
      if !held || Date() >= deadline { return held }
      usleep(10_000)
    }
  }

  /// The zip an update replaces is closed once the new one is in place (the kernel frees
  /// its blocks then): by the time the update returns with one job, soon after on a
  /// thread of its own with several; through the pack and through a file wrapper.
  @Test(arguments: [1, 4])
  func anUpdateLetsGoOfTheArchiveItReplaced(jobs: Int) async throws {
    try await withTemporaryDirectory("update-release") { folder in
      let package = try makePackage(in: folder)
      let archive = folder.appendingPathComponent("Doc.zip")
      var options = PackOptions(format: .zip, reproducible: true)
      options.jobs = jobs
      options.replacePolicy = .replace
      _ = try Packer.packSynchronously(package, to: archive, options: options)
      // The check sees a replaced file that is still open.
      let held = open(archive.path, O_RDONLY | O_CLOEXEC)
      try #require(held >= 0)
      let copy = folder.appendingPathComponent("copy.zip")
      try FileManager.default.copyItem(at: archive, to: copy)
      #expect(rename(copy.path, archive.path) == 0)
      #expect(Self.holdsReplacedFile(at: archive.path, waiting: 0))
      close(held)
      try Data("changed".utf8).write(to: package.appendingPathComponent("pages/7.txt"))
      options.previousArchive = archive
      let updated = try Packer.packSynchronously(package, to: archive, options: options)
      #expect(updated.reusedEntryCount > 0)
      #expect(!Self.holdsReplacedFile(at: archive.path, waiting: jobs == 1 ? 0 : 5))
      let wrapper = try FileWrapper(url: package, options: .immediate)
      try wrapper.write(toArchiveAt: archive, previous: archive, options: options)
      #expect(!Self.holdsReplacedFile(at: archive.path, waiting: jobs == 1 ? 0 : 5))
      #expect(try ArchiveVerifier.compare(.file(archive), against: package) == [])
    }
  }

  /// Whether `/dev/shm` is a file system of its own beside the temporary folders, where
  /// the kernel refuses to copy between the two and the bytes go through a buffer.
  static var hasSeparateMemoryFileSystem: Bool {
    var memory = stat()
    var temporary = stat()
    return stat("/dev/shm", &memory) == 0
      && stat(FileManager.default.temporaryDirectory.path, &temporary) == 0
      && memory.st_dev != temporary.st_dev && access("/dev/shm", W_OK) == 0
  }

  /// The earlier zip on another file system (the library takes any earlier archive): its
  /// entries are still copied, through a buffer, and the result is the fresh pack's bytes.
  @Test(.enabled(if: hasSeparateMemoryFileSystem, "needs a writable /dev/shm of its own"))
  func anEarlierZipOnAnotherFileSystemIsStillCopied() async throws {
    try await withTemporaryDirectory("pack-update-elsewhere") { folder in
      let package = try makePackage(in: folder)
      let earlier = URL(
        fileURLWithPath:
          "/dev/shm/folio-update-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).zip")
      defer { unlink(earlier.path) }
      _ = try pack(package, to: earlier, previous: nil)
      try Data("changed".utf8).write(to: package.appendingPathComponent("pages/20.txt"))
      let archive = folder.appendingPathComponent("Doc.zip")
      let updated = try pack(package, to: archive, previous: earlier)
      #expect(updated.reusedEntryCount == updated.fileCount - 1)
      let fresh = folder.appendingPathComponent("fresh.zip")
      _ = try pack(package, to: fresh, previous: nil)
      #expect(try runProcess("cmp", [archive.path, fresh.path]).status == 0)
    }
  }
}
