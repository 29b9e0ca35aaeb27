import Archives
import FolioSystem
import FolioTestSupport
import Foundation
import ProgressReporting
import Testing

/// One node of a tree, as a restore must reproduce it.
struct TreeNode: Equatable, CustomStringConvertible {
  var kind: String
  var mode: UInt32
  var modificationTime: Int
  var content: Data?
  var linkTarget: String?

  var description: String {
    "\(kind) \(String(mode, radix: 8)) @\(modificationTime) \(content?.count ?? -1)B \(linkTarget ?? "")"
  }
}

/// Every node under `root` (the root itself as "."), with bytes, mode, mtime and link target.
func treeSnapshot(_ root: URL) -> [String: TreeNode] {
  var nodes: [String: TreeNode] = [:]
  func node(_ path: String) -> TreeNode {
    var info = stat()
    lstat(path, &info)
    let mode = UInt32(info.st_mode) & 0o7777
    let time = Int(info.st_mtim.tv_sec)
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return TreeNode(kind: "d", mode: mode, modificationTime: time)
    case S_IFLNK:
      let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path)
      return TreeNode(kind: "l", mode: 0, modificationTime: time, linkTarget: target)
    default:
      return TreeNode(
        kind: "f", mode: mode, modificationTime: time,
        content: FileManager.default.contents(atPath: path))
    }
  }
  nodes["."] = node(root.path)
  let walker = FileManager.default.enumerator(atPath: root.path)
  while let relative = walker?.nextObject() as? String {
    nodes[relative] = node(root.appendingPathComponent(relative).path)
  }
  return nodes
}

/// Reports every difference between two snapshots.
func expectSameTree(
  _ expected: [String: TreeNode], _ actual: [String: TreeNode], _ label: String,
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  for key in Set(expected.keys).union(actual.keys).sorted() where expected[key] != actual[key] {
    Issue.record(
      "\(label): \(key): expected \(expected[key].map(String.init(describing:)) ?? "nothing"), got \(actual[key].map(String.init(describing:)) ?? "nothing")",
      sourceLocation: sourceLocation)
  }
}

@Suite struct ExpanderTests {
  static let mixed = "mixed.examplenotebook"

  /// The peers that write archives `folio expand` must restore exactly.
  static let writers: [(String, [String])] = [
    ("zip -r", ["zip", "-qry", "OUT", mixed]),
    ("bsdtar zip", ["bsdtar", "--format", "zip", "-cf", "OUT", mixed]),
    ("zip -r -fz (ZIP64)", ["zip", "-qry", "-fz", "OUT", mixed]),
    ("bsdtar zip64", ["bsdtar", "--format", "zip", "--options", "zip:zip64", "-cf", "OUT", mixed]),
    ("bsdtar tar", ["bsdtar", "-cf", "OUT", mixed]),
    ("bsdtar tar.gz", ["bsdtar", "-czf", "OUT", mixed]),
    ("bsdtar tar.bz2", ["bsdtar", "-cjf", "OUT", mixed]),
    ("bsdtar tar.xz", ["bsdtar", "-cJf", "OUT", mixed]),
    ("bsdtar tar.zst", ["bsdtar", "--zstd", "-cf", "OUT", mixed]),
    (
      "python tarfile",
      [
        "python3", "-c",
        "import tarfile; t=tarfile.open('OUT','w:gz'); t.add('\(mixed)'); t.close()",
      ]
    ),
    ("python zipfile", ["python3", "-c", pythonZip]),
  ]

  /// Python's zipfile keeps modes and symlinks only when told; this writes them as Info-ZIP does.
  static let pythonZip = """
    import os, stat, zipfile, time
    with zipfile.ZipFile('OUT', 'w', zipfile.ZIP_DEFLATED) as z:
        for folder, dirs, files in os.walk('\(mixed)'):
            for name in sorted(dirs) + sorted(files):
                path = os.path.join(folder, name)
                st = os.lstat(path)
                info = zipfile.ZipInfo(path + ('/' if stat.S_ISDIR(st.st_mode) else ''), time.gmtime(st.st_mtime)[:6])
                info.create_system = 3
                info.external_attr = st.st_mode << 16
                if stat.S_ISLNK(st.st_mode):
                    z.writestr(info, os.readlink(path))
                elif stat.S_ISDIR(st.st_mode):
                    z.writestr(info, b'')
                else:
                    info.compress_type = zipfile.ZIP_DEFLATED
                    z.writestr(info, open(path, 'rb').read())
    """

  @Test(arguments: writers.map(\.0))
  func restoresWhatPeersWrite(_ writer: String) async throws {
    let corpus = try BenchmarkCorpus.small()
    let source = corpus.appendingPathComponent(Self.mixed)
    try await withTemporaryDirectory("expand-interop") { folder in
      let command = try #require(Self.writers.first { $0.0 == writer }?.1)
      // A neutral extension: the format must be found from the content.
      let archive = folder.appendingPathComponent("archive.data")
      let arguments = command.dropFirst().map {
        $0.replacingOccurrences(of: "OUT", with: archive.path)
      }
      let made = try runProcess(command[0], Array(arguments), in: corpus)
      #expect(made.status == 0, "\(writer): \(made.errorText)")
      let destination = folder.appendingPathComponent("Restored.examplenotebook")
      let result = try Expander.expandSynchronously(archive, into: destination)
      #expect(result.unwrappedTopFolder == Self.mixed)
      var expected = treeSnapshot(source)
      var actual = treeSnapshot(destination)
      if writer.hasPrefix("python zipfile") || writer.hasPrefix("zip -r") {
        // Zip stores times in local time with 2-second steps and Info-ZIP keeps folder times
        // only in its extra field: compare file times, not the root's.
        expected["."] = nil
        actual["."] = nil
      }
      if writer == "python zipfile" {
        // DOS times have a 2-second resolution.
        for key in expected.keys { expected[key]?.modificationTime &= ~1 }
        for key in actual.keys { actual[key]?.modificationTime &= ~1 }
      }
      expectSameTree(expected, actual, writer)
    }
  }

  /// More peers, compared with what bsdtar extracts from the very same archive (their
  /// modes and times follow the writer, not the source tree).
  static let peerWriters: [(String, String)] = [
    ("git archive zip", "git archive --format=zip -o OUT HEAD \(mixed)"),
    ("git archive tar.gz", "git archive --format=tar.gz -o OUT HEAD \(mixed)"),
    ("zip to a pipe (data descriptors)", "zip -qr - \(mixed) | cat > OUT"),
    ("7z zip", "7z a -tzip -snl OUT \(mixed) > /dev/null"),
    ("7z zip bzip2", "7z a -tzip -mm=BZip2 -snl OUT \(mixed) > /dev/null"),
    ("7z 7z", "7z a -t7z -snl OUT \(mixed) > /dev/null"),
    ("GNU tar", "tar -cf OUT \(mixed)"),
    ("GNU tar.xz", "tar -cJf OUT \(mixed)"),
    (
      "python zipfile lzma",
      "python3 -c \"import zipfile, os\nwith zipfile.ZipFile('OUT', 'w', zipfile.ZIP_LZMA) as z:\n    [z.write(os.path.join(d, f)) for d, _, fs in os.walk('\(mixed)') for f in fs if not os.path.islink(os.path.join(d, f))]\""
    ),
  ]

  @Test(arguments: peerWriters.map(\.0))
  func expandsWhatPeersWriteAsBsdtarDoes(_ writer: String) async throws {
    let corpus = try BenchmarkCorpus.small()
    try await withTemporaryDirectory("expand-peers") { folder in
      let command = try #require(Self.peerWriters.first { $0.0 == writer }?.1)
      let work = folder.appendingPathComponent("work")
      try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
      #expect(
        try runProcess("cp", ["-a", corpus.appendingPathComponent(Self.mixed).path, work.path])
          .status == 0)
      if writer.hasPrefix("git") {
        let git = try runProcess(
          "sh",
          ["-c", "git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm t"],
          in: work)
        #expect(git.status == 0, "\(git.errorText)")
      }
      let archive = folder.appendingPathComponent("archive.data")
      let made = try runProcess(
        "sh", ["-c", command.replacingOccurrences(of: "OUT", with: archive.path)], in: work)
      #expect(made.status == 0, "\(writer): \(made.errorText)")
      let ours = folder.appendingPathComponent("ours")
      _ = try Expander.expandSynchronously(
        archive, into: ours, policy: ExpansionPolicy(keepsTopFolder: true))
      let theirs = folder.appendingPathComponent("theirs")
      try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: false)
      let extracted = try runProcess("bsdtar", ["-xpf", archive.path, "-C", theirs.path])
      #expect(extracted.status == 0, "\(extracted.errorText)")
      var expected = treeSnapshot(theirs)
      var actual = treeSnapshot(ours)
      expected["."] = nil
      actual["."] = nil
      // Folio never restores group or other write (ExpansionPolicy.permissions).
      for key in expected.keys { expected[key]?.mode &= 0o755 }
      if writer == "python zipfile lzma" {
        // This archive has no folder entries, so neither tool has a time to restore on a
        // folder: both leave the moment it was made, which can differ by a second.
        for (key, node) in expected where node.kind == "d" { expected[key]?.modificationTime = 0 }
        for (key, node) in actual where node.kind == "d" { actual[key]?.modificationTime = 0 }
      }
      expectSameTree(expected, actual, writer)
      #expect(actual.count > 3, "\(writer): \(actual.keys.sorted())")
    }
  }

  @Test func byteProgressEndsAtTheTotalAndNeverGoesBack() async throws {
    let corpus = try BenchmarkCorpus.small()
    try await withTemporaryDirectory("expand-progress") { folder in
      for (name, flags) in [("pages.tar.gz", "-czf"), ("pages.zip", "--format=zip -cf")] {
        let archive = folder.appendingPathComponent(name)
        let made = try runProcess(
          "sh", ["-c", "bsdtar \(flags) '\(archive.path)' pages.examplenotebook"], in: corpus)
        #expect(made.status == 0, "\(made.errorText)")
        let reporter = ProgressManager(totalCount: 1)
        let watcher = Task {
          var last: UInt64? = nil
          var backwards = false
          var final: ProgressSnapshot?
          for await event in reporter.reporter.events(interval: .milliseconds(20)) {
            switch event {
            case .update(let snapshot):
              if let last, snapshot.completedByteCount < last { backwards = true }
              last = snapshot.completedByteCount
            case .finished(let snapshot): final = snapshot
            default: break
            }
          }
          return (backwards, final)
        }
        let result = try await Expander.expand(
          archive, into: folder.appendingPathComponent(name + ".out"),
          progress: reporter.subprogress(assigningCount: 1))
        let (backwards, final) = await watcher.value
        #expect(!backwards)
        #expect(
          final?.completedByteCount == final?.totalByteCount,
          "\(name): \(String(describing: final))")
        #expect(final?.completedFileCount == result.fileCount)
        #expect(final?.fractionCompleted == 1)
      }
    }
  }

  @Test func existingDestinationIsRefusedWithoutForce() async throws {
    try await withTemporaryDirectory("expand-exists") { folder in
      let archive = try makeHostileArchive("zip-many", in: folder)
      let destination = folder.appendingPathComponent("dest")
      try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
      let before = treeListing(folder)
      let error = #expect(throws: PackagingError.self) {
        _ = try Expander.expandSynchronously(archive, into: destination)
      }
      #expect(error?.code == .outputExists)
      #expect(treeListing(folder) == before)
    }
  }

  @Test func forceReplacesTheDestinationWhole() async throws {
    try await withTemporaryDirectory("expand-force") { folder in
      let archive = try makeHostileArchive("zip-many", in: folder)
      let destination = folder.appendingPathComponent("dest")
      try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
      try Data("old".utf8).write(to: destination.appendingPathComponent("old.txt"))
      let result = try Expander.expandSynchronously(
        archive, into: destination, replacePolicy: .replace)
      #expect(result.replacedExisting)
      let names = try FileManager.default.contentsOfDirectory(atPath: destination.path).sorted()
      #expect(names == ["f0.txt", "f1.txt", "f2.txt", "f3.txt", "f4.txt"])
      // Nothing but the archive and the destination is left beside it.
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
          "dest", "zip-many",
        ])
    }
  }

  @Test func updateKeepsUnchangedFilesAndRemovesVanishedOnes() async throws {
    try await withTemporaryDirectory("expand-update") { folder in
      let tree = folder.appendingPathComponent("Note")
      try FileManager.default.createDirectory(
        at: tree.appendingPathComponent("pages"), withIntermediateDirectories: true)
      try Data("same".utf8).write(to: tree.appendingPathComponent("pages/same.txt"))
      try Data("new text".utf8).write(to: tree.appendingPathComponent("pages/changed.txt"))
      let archive = folder.appendingPathComponent("Note.tar")
      let made = try runProcess("bsdtar", ["-cf", archive.path, "Note"], in: folder)
      #expect(made.status == 0)

      let destination = folder.appendingPathComponent("Out")
      try FileManager.default.createDirectory(
        at: destination.appendingPathComponent("pages"), withIntermediateDirectories: true)
      let same = destination.appendingPathComponent("pages/same.txt")
      try Data("same".utf8).write(to: same)
      try Data("old text".utf8).write(to: destination.appendingPathComponent("pages/changed.txt"))
      try Data("gone".utf8).write(to: destination.appendingPathComponent("pages/vanished.txt"))
      var old = [
        timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0),
      ]
      utimensat(AT_FDCWD, same.path, &old, 0)
      var before = stat()
      stat(same.path, &before)

      let result = try Expander.expandSynchronously(
        archive, into: destination, replacePolicy: .update)
      #expect(result.unchangedFileCount == 1)
      // The library reports what the update removed, found under its lock.
      #expect(result.removedPaths == ["pages/vanished.txt"])
      var after = stat()
      stat(same.path, &after)
      #expect(after.st_ino == before.st_ino)
      #expect(after.st_mtim.tv_sec == 1_000_000_000)
      let changed = try String(
        contentsOf: destination.appendingPathComponent("pages/changed.txt"), encoding: .utf8)
      #expect(changed == "new text")
      #expect(
        !FileManager.default.fileExists(
          atPath: destination.appendingPathComponent("pages/vanished.txt").path))
    }
  }

  @Test(arguments: [("bsdtar", ["-cf", "OUT", "P"]), ("GNU tar", ["-czf", "OUT", "P"])])
  func hardLinksAreRestoredAsLinks(_ tool: String, _ arguments: [String]) async throws {
    try await withTemporaryDirectory("expand-hard-links") { folder in
      let package = folder.appendingPathComponent("P")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: false)
      try Data("shared".utf8).write(to: package.appendingPathComponent("a"))
      #expect(
        link(package.appendingPathComponent("a").path, package.appendingPathComponent("b").path)
          == 0)
      let archive = folder.appendingPathComponent("links.archive")
      let program = tool == "bsdtar" ? "bsdtar" : "tar"
      let made = try runProcess(
        program, arguments.map { $0 == "OUT" ? archive.path : $0 }, in: folder)
      #expect(made.status == 0, "\(made.errorText)")
      let destination = folder.appendingPathComponent("Out")
      let result = try Expander.expandSynchronously(archive, into: destination)
      #expect(result.fileCount == 1)
      #expect(result.hardLinkCount == 1)
      var first = stat()
      var second = stat()
      stat(destination.appendingPathComponent("a").path, &first)
      stat(destination.appendingPathComponent("b").path, &second)
      #expect(first.st_ino == second.st_ino)
      #expect(first.st_nlink == 2)
    }
  }

  @Test func neverReplacesTheFolderHoldingTheArchive() async throws {
    try await withTemporaryDirectory("expand-archive-inside") { folder in
      let destination = folder.appendingPathComponent("dest")
      try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
      let archive = try makeHostileArchive("zip-many", in: destination)
      for mode in [ReplacePolicy.replace, .update] {
        let error = #expect(throws: PackagingError.self) {
          _ = try Expander.expandSynchronously(archive, into: destination, replacePolicy: mode)
        }
        #expect(error?.code == .archiveInsideDestination)
        #expect(FileManager.default.fileExists(atPath: archive.path))
      }
    }
  }

  @Test func keepsTopFolderWhenAsked() async throws {
    try await withTemporaryDirectory("expand-keep-top") { folder in
      let archive = try makeHostileArchive("zip-macos", in: folder)
      let destination = folder.appendingPathComponent("dest")
      let result = try Expander.expandSynchronously(
        archive, into: destination, policy: ExpansionPolicy(keepsTopFolder: true))
      #expect(result.unwrappedTopFolder == nil)
      #expect(
        FileManager.default.fileExists(
          atPath: destination.appendingPathComponent("Note/a.txt").path))
    }
  }

  @Test func cancellationLeavesNothing() async throws {
    let corpus = try BenchmarkCorpus.small()
    try await withTemporaryDirectory("expand-cancel") { folder in
      let archive = folder.appendingPathComponent("pages.tar")
      _ = try runProcess("bsdtar", ["-cf", archive.path, "pages.examplenotebook"], in: corpus)
      let reporter = ProgressManager(totalCount: 1)
      reporter.cancel()
      let before = treeListing(folder)
      await #expect(throws: CancellationError.self) {
        _ = try await Expander.expand(
          archive, into: folder.appendingPathComponent("out"),
          progress: reporter.subprogress(assigningCount: 1))
      }
      #expect(treeListing(folder) == before)
    }
  }
}
