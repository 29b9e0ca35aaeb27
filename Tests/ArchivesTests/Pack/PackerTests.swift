import FolioTestSupport
import Foundation
import Synchronization
import Testing
import UniformTypes

@testable import Archives

@Suite struct PackerTests {
  // MARK: Reproducible

  @Test(arguments: ArchiveFormat.allCases)
  func reproduciblePacksOfEqualTreesAreByteIdentical(format: ArchiveFormat) async throws {
    let package = try BenchmarkCorpus.small().appendingPathComponent("mixed.examplenotebook")
    try await withTemporaryDirectory("pack-reproducible") { folder in
      // A copy with other owners and sub-second times must still pack identically.
      let copyParent = folder.appendingPathComponent("copy")
      try FileManager.default.createDirectory(at: copyParent, withIntermediateDirectories: true)
      let copy = try runProcess("cp", ["-a", package.path, copyParent.path])
      #expect(copy.status == 0)
      let copied = copyParent.appendingPathComponent("mixed.examplenotebook")
      _ = try runProcess("chown", ["-R", "-h", "1234:1234", copied.path])
      var times = [
        timespec(tv_sec: 1_700_000_000, tv_nsec: 123_456),
        timespec(tv_sec: 1_700_000_000, tv_nsec: 123_456),
      ]
      utimensat(AT_FDCWD, copied.appendingPathComponent("metadata.json").path, &times, 0)

      let options = PackOptions(format: format, reproducible: true)
      let first = folder.appendingPathComponent("one")
      let second = folder.appendingPathComponent("two")
      let third = folder.appendingPathComponent("three")
      _ = try await Packer.pack(package, to: first, options: options)
      try await Task.sleep(for: .milliseconds(1100))  // a gzip or zip timestamp would now differ
      _ = try await Packer.pack(package, to: second, options: options)
      _ = try await Packer.pack(copied, to: third, options: options)
      let bytes = try [first, second, third].map { try Data(contentsOf: $0) }
      #expect(bytes[0] == bytes[1])
      #expect(bytes[0] == bytes[2])
    }
  }

  @Test func sourceDateEpochClampsLaterTimes() async throws {
    try await withTemporaryDirectory("pack-epoch") { folder in
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("Tree.pkg"),
        files: ["new.txt": PackTestTrees.text(100), "old.txt": PackTestTrees.text(100)],
        mtime: 1_800_000_000)
      var old = [
        timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0),
      ]
      utimensat(AT_FDCWD, tree.appendingPathComponent("old.txt").path, &old, 0)
      let archive = folder.appendingPathComponent("t.tar")
      _ = try await Packer.pack(
        tree, to: archive, options: PackOptions(sourceDateEpoch: 1_500_000_000))
      let listing = try runProcess(
        "python3",
        [
          "-c",
          "import sys,tarfile\nfor m in tarfile.open(sys.argv[1]): print(m.name, m.mtime, m.uid, m.gid)",
          archive.path,
        ])
      #expect(listing.status == 0)
      let lines = Set(listing.outputText.split(separator: "\n").map(String.init))
      #expect(
        lines == [
          "Tree.pkg 1500000000 0 0", "Tree.pkg/new.txt 1500000000 0 0",
          "Tree.pkg/old.txt 1000000000 0 0",
        ])
    }
  }

  // MARK: Interoperability

  @Test(arguments: ArchiveFormat.allCases)
  func peersReadWhatFolioWrites(format: ArchiveFormat) async throws {
    let package = try BenchmarkCorpus.small().appendingPathComponent("mixed.examplenotebook")
    try await withTemporaryDirectory("pack-interop") { folder in
      let archive = folder.appendingPathComponent("mixed." + format.fileExtension)
      _ = try await Packer.pack(package, to: archive)
      let bsdtar = try runProcess("bsdtar", ["-tf", archive.path])
      #expect(bsdtar.status == 0, "bsdtar: \(bsdtar.errorText)")
      #expect(bsdtar.outputText.contains("mixed.examplenotebook/Ünïcödé 文稿/ページ.txt"))
      if format == .zip {
        let unzip = try runProcess("unzip", ["-t", archive.path])
        #expect(unzip.status == 0, "unzip: \(unzip.outputText)")
        let python = try runProcess("python3", ["-m", "zipfile", "-t", archive.path])
        #expect(python.status == 0, "zipfile: \(python.errorText)")
        let flags = try runProcess(
          "python3",
          [
            "-c",
            "import sys,zipfile\nfor i in zipfile.ZipFile(sys.argv[1]).infolist():\n if not i.filename.isascii(): print(i.filename, i.flag_bits & 0x800)",
            archive.path,
          ])
        #expect(flags.outputText.split(separator: "\n").allSatisfy { $0.hasSuffix(" 2048") })
        #expect(!flags.outputText.isEmpty)
      } else {
        let script = """
          import sys, tarfile
          with tarfile.open(sys.argv[1]) as t:
              for m in t:
                  if m.isfile():
                      data = t.extractfile(m).read()
                      assert len(data) == m.size, m.name
                  print(m.name, m.type.decode())
          """
        var readable = archive
        if format == .tarZstd {  // Python's tarfile reads zstd only from 3.14
          readable = folder.appendingPathComponent("plain.tar")
          #expect(try runProcess("zstd", ["-dq", archive.path, "-o", readable.path]).status == 0)
        }
        let python = try runProcess("python3", ["-c", script, readable.path])
        #expect(python.status == 0, "tarfile: \(python.errorText)")
        #expect(python.outputText.contains("mixed.examplenotebook/link-to-dir 2"))
      }
    }
  }

  // MARK: What is kept

  @Test func hardLinksAreStoredOnceInTarAndInFullInZip() async throws {
    try await withTemporaryDirectory("pack-hardlinks") { folder in
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("Links.pkg"), files: ["a.txt": PackTestTrees.text(5000)])
      #expect(
        link(tree.appendingPathComponent("a.txt").path, tree.appendingPathComponent("b.txt").path)
          == 0)
      let tar = folder.appendingPathComponent("l.tar")
      let tarResult = try await Packer.pack(tree, to: tar)
      #expect(tarResult.hardLinkCount == 1)
      #expect(tarResult.byteCount == 5000)
      let listing = try runProcess("bsdtar", ["-tvf", tar.path])
      #expect(listing.outputText.contains("Links.pkg/b.txt link to Links.pkg/a.txt"))
      let out = folder.appendingPathComponent("out")
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      #expect(try runProcess("bsdtar", ["-xf", tar.path, "-C", out.path]).status == 0)
      let manifest = try TreeManifest(of: out.appendingPathComponent("Links.pkg"))
      #expect(manifest.entries["a.txt"]?.inode == manifest.entries["b.txt"]?.inode)

      let zip = folder.appendingPathComponent("l.zip")
      let zipResult = try await Packer.pack(tree, to: zip)
      #expect(zipResult.hardLinkCount == 0)
      #expect(zipResult.byteCount == 10000)
      let unzip = try runProcess("unzip", ["-t", zip.path])
      #expect(unzip.status == 0)
    }
  }

  @Test func withoutKeepParentTheContentsAreAtTheTop() async throws {
    try await withTemporaryDirectory("pack-noparent") { folder in
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("Top.pkg"), files: ["sub/a.txt": Data("a".utf8)])
      let archive = folder.appendingPathComponent("t.zip")
      _ = try await Packer.pack(tree, to: archive, options: PackOptions(keepParent: false))
      let listing = try runProcess("bsdtar", ["-tf", archive.path])
      #expect(listing.outputText.split(separator: "\n") == ["sub/", "sub/a.txt"])
    }
  }

  @Test func compressedAndRandomFilesAreStoredAndTextDeflated() async throws {
    try await withTemporaryDirectory("pack-store") { folder in
      let random = PackTestTrees.randomBytes(300_000, seed: 7)
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("Media.pkg"),
        files: [
          "photo.jpg": PackTestTrees.text(20_000),  // named as compressed: stored by type
          "noise.bin": random,  // random bytes: stored by sampling
          "half.bin": random.prefix(150_000) + PackTestTrees.text(150_000),  // mixed: deflated
          "page.txt": PackTestTrees.text(20_000),
          "tiny.txt": Data("hi".utf8),
        ])
      let archive = folder.appendingPathComponent("m.zip")
      let result = try await Packer.pack(tree, to: archive)
      let methods = try zipMethods(archive)
      #expect(methods["Media.pkg/photo.jpg"] == 0)
      #expect(methods["Media.pkg/noise.bin"] == 0)
      #expect(methods["Media.pkg/half.bin"] == 8)
      #expect(methods["Media.pkg/page.txt"] == 8)
      #expect(methods["Media.pkg/tiny.txt"] == 0)
      #expect(result.storedEntryCount == 3)

      let forced = folder.appendingPathComponent("forced.zip")
      _ = try await Packer.pack(
        tree, to: forced, options: PackOptions(compressionLevel: 1, compression: .deflate))
      #expect(
        try zipMethods(forced).filter { !$0.key.hasSuffix("/") }.values.allSatisfy { $0 == 8 })

      let stored = folder.appendingPathComponent("stored.zip")
      _ = try await Packer.pack(tree, to: stored, options: PackOptions(compressionLevel: 0))
      #expect(try zipMethods(stored).values.allSatisfy { $0 == 0 })
      #expect(try runProcess("unzip", ["-t", stored.path]).status == 0)
    }
  }

  @Test func declaredTypesConformingToCompressedTypesAreStored() async throws {
    var builder = TypeRegistryBuilder()
    builder.add(
      TypeDeclaration(
        identifier: "com.example.sketch-bundle", kind: .exported,
        conformsTo: ["public.zip-archive"], tags: [TypeTag(.filenameExtension, "sketchz")]))
    let registry = builder.build()
    try await withTemporaryDirectory("pack-registry") { folder in
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("R.pkg"),
        files: [
          "drawing.sketchz": PackTestTrees.text(20_000), "notes.txt": PackTestTrees.text(20_000),
        ])
      let archive = folder.appendingPathComponent("r.zip")
      _ = try await Packer.pack(tree, to: archive, options: PackOptions(typeRegistry: registry))
      let methods = try zipMethods(archive)
      #expect(methods["R.pkg/drawing.sketchz"] == 0)
      #expect(methods["R.pkg/notes.txt"] == 8)
      // The system registry does not know the extension: the text is deflated.
      let system = folder.appendingPathComponent("system.zip")
      _ = try await Packer.pack(tree, to: system)
      #expect(try zipMethods(system)["R.pkg/drawing.sketchz"] == 8)
    }
  }

  private func zipMethods(_ archive: URL) throws -> [String: Int] {
    let result = try runProcess(
      "python3",
      [
        "-c",
        "import sys,zipfile\nfor i in zipfile.ZipFile(sys.argv[1]).infolist(): print(i.compress_type, i.filename)",
        archive.path,
      ])
    var methods: [String: Int] = [:]
    for line in result.outputText.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1)
      methods[String(parts[1])] = Int(parts[0])
    }
    return methods
  }

  // MARK: Refusals

  @Test func fifoIsRefusedNamingItsPath() async throws {
    try await withTemporaryDirectory("pack-fifo") { folder in
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("F.pkg"), files: ["a.txt": Data("a".utf8)])
      #expect(mkfifo(tree.appendingPathComponent("pipe").path, 0o644) == 0)
      let archive = folder.appendingPathComponent("f.zip")
      await #expect {
        try await Packer.pack(tree, to: archive)
      } throws: { error in
        let error = error as? PackagingError
        return error?.code == .unsupportedFileType && error?.message.contains("F.pkg/pipe") == true
          && error?.message.contains("FIFO") == true
      }
      #expect(!FileManager.default.fileExists(atPath: archive.path))
      #expect(PackTestTrees.temporaries(in: folder) == [])
    }
  }

  @Test func socketIsRefusedNamingItsPath() async throws {
    try await withTemporaryDirectory("pack-socket") { folder in
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("S.pkg"), files: ["a.txt": Data("a".utf8)])
      let socketPath = tree.appendingPathComponent("sock").path
      let made = try runProcess(
        "python3",
        [
          "-c", "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.bind(sys.argv[1])",
          socketPath,
        ])
      #expect(made.status == 0)
      await #expect {
        try await Packer.pack(tree, to: folder.appendingPathComponent("s.tar"))
      } throws: { error in
        let error = error as? PackagingError
        return error?.code == .unsupportedFileType && error?.message.contains("S.pkg/sock") == true
      }
    }
  }

  @Test(arguments: ["/etc/passwd", "../outside.txt", "sub/../../outside.txt", "here/../x"])
  func externalSymlinkIsRefusedUnlessAllowed(target: String) async throws {
    try await withTemporaryDirectory("pack-extlink") { folder in
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("L.pkg"), files: ["sub/a.txt": Data("a".utf8)])
      // `here` points at the package root itself, so `here/../x` leaves the package
      // though it looks lexically inside.
      try FileManager.default.createSymbolicLink(
        atPath: tree.appendingPathComponent("here").path, withDestinationPath: ".")
      try FileManager.default.createSymbolicLink(
        atPath: tree.appendingPathComponent("link").path, withDestinationPath: target)
      let archive = folder.appendingPathComponent("l.tar")
      await #expect {
        try await Packer.pack(tree, to: archive)
      } throws: { error in
        let error = error as? PackagingError
        return error?.code == .externalSymlink && error?.message.contains("L.pkg/link") == true
      }
      #expect(!FileManager.default.fileExists(atPath: archive.path))
      let result = try await Packer.pack(
        tree, to: archive, options: PackOptions(allowExternalSymlinks: true))
      #expect(result.symbolicLinkCount == 2)
      let listing = try runProcess("bsdtar", ["-tvf", archive.path])
      #expect(listing.outputText.contains("L.pkg/link -> \(target)"))
    }
  }

  @Test func internalSymlinksThroughOtherLinksAreKept() async throws {
    try await withTemporaryDirectory("pack-intlink") { folder in
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("I.pkg"), files: ["a/b/c.txt": Data("c".utf8)])
      try FileManager.default.createSymbolicLink(
        atPath: tree.appendingPathComponent("deep").path, withDestinationPath: "a/b")
      try FileManager.default.createSymbolicLink(
        atPath: tree.appendingPathComponent("up").path, withDestinationPath: "deep/../../../I.pkg/a"
      )
      try FileManager.default.createSymbolicLink(
        atPath: tree.appendingPathComponent("dangling").path, withDestinationPath: "missing/file")
      await #expect(throws: PackagingError.self) {
        // `deep` is `a/b`, so `deep/../..` is the package root and `../I.pkg` leaves it.
        try await Packer.pack(tree, to: folder.appendingPathComponent("x.tar"))
      }
      try FileManager.default.removeItem(at: tree.appendingPathComponent("up"))
      try FileManager.default.createSymbolicLink(
        atPath: tree.appendingPathComponent("up").path, withDestinationPath: "deep/../../a/b/c.txt")
      let result = try await Packer.pack(tree, to: folder.appendingPathComponent("y.tar"))
      #expect(result.symbolicLinkCount == 3)
    }
  }

  @Test func aFileOrAMissingPathIsNotAPackage() async throws {
    try await withTemporaryDirectory("pack-notdir") { folder in
      let file = folder.appendingPathComponent("plain.txt")
      try Data("x".utf8).write(to: file)
      await #expect {
        try await Packer.pack(file, to: folder.appendingPathComponent("p.zip"))
      } throws: { ($0 as? PackagingError)?.code == .notADirectory }
      await #expect {
        try await Packer.pack(
          folder.appendingPathComponent("missing.pkg"), to: folder.appendingPathComponent("p.zip"))
      } throws: { error in
        (error as? PackagingError)?.message.contains("missing.pkg") == true
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["plain.txt"])
    }
  }

  @Test func packWaitsForAWritersLockVisiblyAndTimesOut() async throws {
    try await withTemporaryDirectory("pack-lock") { folder in
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("Locked.pkg"), files: ["a.txt": Data("a".utf8)])
      let writer = try await PackageLock.acquire(
        .exclusive, on: tree, options: LockOptions(timeout: .zero))
      await #expect {
        try await Packer.pack(
          tree, to: folder.appendingPathComponent("l.zip"),
          lockOptions: LockOptions(timeout: .zero))
      } throws: { ($0 as? PackagingError)?.code == .lockTimeout }
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("l.zip").path))

      // The writer lets go as soon as the packer says it waits: the pack then goes ahead.
      let waits = Mutex<[LockWait]>([])
      let result = try await Packer.pack(
        tree, to: folder.appendingPathComponent("l.zip"),
        lockOptions: LockOptions(timeout: .seconds(30)) { wait in
          waits.withLock { $0.append(wait) }
          writer.release()
        })
      #expect(result.fileCount == 1)
      #expect(waits.withLock { $0.map(\.kind) } == [.shared])
      #expect(waits.withLock { $0.first?.package.lastPathComponent } == "Locked.pkg")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
          == ["Locked.pkg", "l.zip"])
    }
  }

  @Test func outputInsideThePackageIsRefused() async throws {
    try await withTemporaryDirectory("pack-inside") { folder in
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("P.pkg"), files: ["a.txt": Data("a".utf8)])
      await #expect {
        try await Packer.pack(tree, to: tree.appendingPathComponent("self.zip"))
      } throws: { ($0 as? PackagingError)?.code == .outputInsideSource }
    }
  }

  @Test func formatComesFromTheOutputName() async throws {
    try await withTemporaryDirectory("pack-format") { folder in
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("P.pkg"), files: ["a.txt": Data("a".utf8)])
      let result = try await Packer.pack(tree, to: folder.appendingPathComponent("p.tgz"))
      #expect(result.format == .tarGzip)
      let kind = try runProcess(
        "sh",
        ["-c", "head -c 2 \"$1\" | od -An -tx1", "sh", folder.appendingPathComponent("p.tgz").path])
      #expect(kind.outputText.trimmingCharacters(in: .whitespacesAndNewlines) == "1f 8b")
      await #expect {
        try await Packer.pack(tree, to: folder.appendingPathComponent("p.unknown"))
      } throws: { ($0 as? PackagingError)?.code == .unknownFormat }
      await #expect {
        try await Packer.pack(
          tree, to: folder.appendingPathComponent("p.tar"),
          options: PackOptions(compressionLevel: 5))
      } throws: { ($0 as? PackagingError)?.code == .invalidLevel }
    }
  }

  // MARK: Atomicity

  @Test func failedPackLeavesAnExistingOutputIntact() async throws {
    try await withTemporaryDirectory("pack-atomic") { folder in
      let tree = try PackTestTrees.make(
        folder.appendingPathComponent("A.pkg"), files: ["a.txt": Data("a".utf8)])
      let archive = folder.appendingPathComponent("a.zip")
      let previous = Data("previous archive".utf8)
      try previous.write(to: archive)
      var options = PackOptions()
      options.replacePolicy = .replace
      #expect(mkfifo(tree.appendingPathComponent("z-pipe").path, 0o644) == 0)
      let error = await #expect(throws: PackagingError.self) {
        try await Packer.pack(tree, to: archive, options: options)
      }
      #expect(error?.code != .outputExists)
      #expect(try Data(contentsOf: archive) == previous)
      #expect(PackTestTrees.temporaries(in: folder) == [])
      try FileManager.default.removeItem(at: tree.appendingPathComponent("z-pipe"))
      _ = try await Packer.pack(tree, to: archive, options: options)
      #expect(try Data(contentsOf: archive) != previous)
      #expect(try runProcess("unzip", ["-t", archive.path]).status == 0)
    }
  }

  @Test func writerThrowingInItsBodyLeavesNothing() throws {
    let folder = try makeTemporaryDirectory("pack-writer")
    defer { removeTree(folder) }
    struct Stop: Error {}
    let archive = folder.appendingPathComponent("w.tar.zst")
    #expect(throws: Stop.self) {
      try withArchiveWriter(at: archive, format: .tarZstd) { writer in
        try writer.addDirectory("W")
        try writer.addFile("W/a.txt", data: Data("a".utf8))
        throw Stop()
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    try withArchiveWriter(at: archive, format: .tarZstd) { writer in
      try writer.addDirectory("W")
      try writer.addFile("W/a.txt", data: Data("a".utf8))
      try writer.addSymbolicLink("W/l", target: "a.txt")
      #expect(throws: PackagingError.self) { try writer.addFile("../escape", data: Data()) }
    }
    let listing = try runProcess("bsdtar", ["-tvf", archive.path])
    #expect(listing.outputText.contains("W/l -> a.txt"))
  }
}
