import FolioSystem
import FolioTestSupport
import Foundation
import Glibc
import Testing

@testable import UniformTypes

/// The cache of a loaded shared MIME database: the same database as the XML, only when the
/// files are still the ones it was made from, and never trusted when damaged.
@Suite struct MIMEDatabaseCacheTests {
  private let first = exampleMIMEInfo
  private let second = mimeInfo(
    """
      <mime-type type="text/x-example">
        <comment>Example text, overridden</comment>
        <glob-deleteall/>
        <glob pattern="*.example"/>
        <glob pattern="README.[0-9]"/>
      </mime-type>
      <mime-type type="image/x-example">
        <glob pattern="*.xim" weight="300"/>
      </mime-type>
    """)

  /// A `mime` folder with `packages/first.xml` and `packages/second.xml`.
  private func makeMIMEFolder(in folder: URL) throws -> URL {
    let mime = folder.appendingPathComponent("mime", isDirectory: true)
    let packages = mime.appendingPathComponent("packages", isDirectory: true)
    try FileManager.default.createDirectory(at: packages, withIntermediateDirectories: true)
    try first.write(to: packages.appendingPathComponent("first.xml"))
    try second.write(to: packages.appendingPathComponent("second.xml"))
    return mime
  }

  /// A `mime` folder loaded once through a cache, with the key its cache file stands for.
  private func cachedLoad(in folder: URL) throws -> (
    mime: URL, cache: MIMEDatabaseCache, loaded: MIMEDatabase, key: MIMEDatabaseCache.Key
  ) {
    let mime = try makeMIMEFolder(in: folder)
    let cache = MIMEDatabaseCache(directory: folder.appendingPathComponent("cache"))
    let loaded = MIMEDatabase.load(mimeDirectories: [mime], cache: cache)
    let key = try #require(
      MIMEDatabaseCache.Key(
        files: loaded.sourceFiles.map { URL(fileURLWithPath: $0) }, languages: nil,
        limits: .default))
    return (mime, cache, loaded, key)
  }

  private func cacheFiles(_ cache: MIMEDatabaseCache) -> [URL] {
    ((try? FileManager.default.contentsOfDirectory(atPath: cache.directory.path)) ?? [])
      .filter { $0.hasSuffix(".cache") }.sorted()
      .map { cache.directory.appendingPathComponent($0) }
  }

  @Test func aCachedLoadGivesTheDatabaseTheXMLDescribesWithItsDiagnostics() async throws {
    try await withTemporaryDirectory("mime-cache") { folder in
      let mime = try makeMIMEFolder(in: folder)
      let cache = MIMEDatabaseCache(directory: folder.appendingPathComponent("cache/folio"))
      for languages in [[], ["de"], nil] as [[String]?] {
        let uncached = MIMEDatabase.load(mimeDirectories: [mime], languages: languages)
        #expect(uncached.diagnostics.contains { $0.code == "mime-invalid-glob" })
        let writing = MIMEDatabase.load(
          mimeDirectories: [mime], languages: languages, cache: cache)
        let reading = MIMEDatabase.load(
          mimeDirectories: [mime], languages: languages, cache: cache)
        #expect(writing == uncached)
        #expect(reading == uncached)
      }
      // One file per set of languages, in a folder only the user can enter.
      #expect(cacheFiles(cache).count == 3)
      let attributes = try FileManager.default.attributesOfItem(atPath: cache.directory.path)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }
  }

  @Test func aLoadWithAnUpToDateCacheReadsTheCacheNotTheXML() async throws {
    try await withTemporaryDirectory("mime-cache") { folder in
      let (mime, cache, _, key) = try cachedLoad(in: folder)
      // A cache standing for these very files, saying something else: a load believes it.
      let other = MIMEDatabase.parse(
        mimeInfo(#"<mime-type type="application/x-other"/>"#), file: "other.xml")
      cache.write(other, for: key)
      #expect(MIMEDatabase.load(mimeDirectories: [mime], cache: cache) == other)
    }
  }

  @Test func aChangedAddedOrRemovedFileIsReadAgain() async throws {
    try await withTemporaryDirectory("mime-cache") { folder in
      let mime = try makeMIMEFolder(in: folder)
      let packages = mime.appendingPathComponent("packages")
      let cache = MIMEDatabaseCache(directory: folder.appendingPathComponent("cache"))
      _ = MIMEDatabase.load(mimeDirectories: [mime], cache: cache)

      // Rewritten in place (same inode), same length, modification time set back: only
      // the change time tells.
      let secondFile = packages.appendingPathComponent("second.xml")
      var before = stat()
      #expect(stat(secondFile.path, &before) == 0)
      let edited = Data(
        String(decoding: second, as: UTF8.self)
          .replacingOccurrences(of: "*.example", with: "*.exampl2").utf8)
      #expect(edited.count == second.count)
      let inode =
        try FileManager.default.attributesOfItem(atPath: secondFile.path)[
          .systemFileNumber] as? NSNumber
      let handle = try FileHandle(forWritingTo: secondFile)
      try handle.write(contentsOf: edited)
      try handle.close()
      #expect(
        try FileManager.default.attributesOfItem(atPath: secondFile.path)[.systemFileNumber]
          as? NSNumber == inode)
      // To the nanosecond, as `touch -r` would.
      var times = [before.st_atim, before.st_mtim]
      #expect(utimensat(AT_FDCWD, secondFile.path, &times, 0) == 0)
      var after = stat()
      #expect(stat(secondFile.path, &after) == 0)
      #expect(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec && after.st_size == before.st_size)
      let afterEdit = MIMEDatabase.load(mimeDirectories: [mime], cache: cache)
      #expect(afterEdit == MIMEDatabase.load(mimeDirectories: [mime]))
      #expect(afterEdit.definition(for: "text/x-example")?.globs.first?.pattern == "*.exampl2")

      try mimeInfo(#"<mime-type type="application/x-third"><glob pattern="*.third"/></mime-type>"#)
        .write(to: packages.appendingPathComponent("third.xml"))
      let afterAdding = MIMEDatabase.load(mimeDirectories: [mime], cache: cache)
      #expect(afterAdding.definition(for: "application/x-third") != nil)

      try FileManager.default.removeItem(at: packages.appendingPathComponent("third.xml"))
      let afterRemoving = MIMEDatabase.load(mimeDirectories: [mime], cache: cache)
      #expect(afterRemoving.definition(for: "application/x-third") == nil)
      #expect(afterRemoving == MIMEDatabase.load(mimeDirectories: [mime]))
    }
  }

  @Test func aDamagedTruncatedOrForeignCacheIsSetAsideAndReplaced() async throws {
    try await withTemporaryDirectory("mime-cache") { folder in
      let mime = try makeMIMEFolder(in: folder)
      let cache = MIMEDatabaseCache(directory: folder.appendingPathComponent("cache"))
      let expected = MIMEDatabase.load(mimeDirectories: [mime])
      _ = MIMEDatabase.load(mimeDirectories: [mime], cache: cache)
      let file = try #require(cacheFiles(cache).first)
      let good = try Data(contentsOf: file)
      var flipped = good
      flipped[good.count / 2] ^= 0x20
      var otherVersion = good
      otherVersion[17] &+= 1
      let damages: [(String, Data)] = [
        ("empty", Data()), ("truncated", good.prefix(good.count - 1)),
        ("header only", good.prefix(34)), ("one byte flipped", flipped),
        ("another format version", otherVersion), ("not a cache", Data("hello".utf8)),
        ("longer", good + Data([0])),
      ]
      for (label, bytes) in damages {
        try bytes.write(to: file)
        let loaded = MIMEDatabase.load(mimeDirectories: [mime], cache: cache)
        #expect(loaded == expected, "\(label)")
        #expect(try Data(contentsOf: file) == good, "\(label): the cache is written again")
      }
    }
  }

  @Test func aCacheWithAValidChecksumButImpossibleContentIsRefused() async throws {
    try await withTemporaryDirectory("mime-cache") { folder in
      let (mime, cache, loaded, key) = try cachedLoad(in: folder)
      // What no reader of the XML produces, and the matchers would trip on.
      let impossible: [MagicMatch] = [
        MagicMatch(kind: .string, offset: Int.max, value: [1]),
        MagicMatch(kind: .string, offset: 0, rangeLength: Int.max, value: [1]),
        MagicMatch(kind: .string, offset: 0, value: []),
        MagicMatch(kind: .string, offset: 0, value: [1, 2], mask: [0xff]),
        MagicMatch(kind: .string, offset: -1, value: [1]),
        (0..<40).reduce(MagicMatch(kind: .byte, offset: 0, value: [1])) { inner, _ in
          MagicMatch(kind: .byte, offset: 0, value: [1], children: [inner])
        },
      ]
      for match in impossible {
        var database = loaded
        var type = MIMETypeDefinition(
          name: "application/x-bad", location: SourceLocation(file: "bad.xml", line: 1))
        type.magic = [MagicRule(matches: [match])]
        database = MIMEDatabase(
          types: database.types + [type], sourceFiles: database.sourceFiles,
          diagnostics: database.diagnostics)
        cache.write(database, for: key)
        #expect(cache.read(key) == nil)
        #expect(MIMEDatabase.load(mimeDirectories: [mime], cache: cache) == loaded)
      }
    }
  }

  @Test func everyDamageToAFileWithItsChecksumMendedIsReadSafely() async throws {
    try await withTemporaryDirectory("mime-cache") { folder in
      let (_, cache, _, key) = try cachedLoad(in: folder)
      let file = try #require(cacheFiles(cache).first)
      let good = [UInt8](try Data(contentsOf: file))
      let header = 34
      var decoded = 0
      // Each payload byte set to values a decoder must survive, then every truncation,
      // each with a length and checksum that match, so only the decoder stands guard.
      var variants: [[UInt8]] = []
      for position in header..<good.count {
        for value: UInt8 in [0x00, 0x01, 0x7f, 0x80, 0xff] where good[position] != value {
          var bytes = good
          bytes[position] = value
          variants.append(bytes)
        }
      }
      for length in header..<good.count { variants.append(Array(good.prefix(length))) }
      for var bytes in variants {
        let payload = Array(bytes[header...])
        let checksum = MIMEDatabaseCache.checksum(payload)
        for index in 0..<8 {
          bytes[18 + index] = UInt8(truncatingIfNeeded: UInt64(payload.count) >> (8 * index))
          bytes[26 + index] = UInt8(truncatingIfNeeded: checksum >> (8 * index))
        }
        try Data(bytes).write(to: file)
        if let database = cache.read(key) {
          decoded += 1
          // Whatever was read is a database a registry can take and use.
          var builder = TypeRegistryBuilder(includingSystemTypes: false)
          builder.add(database)
          _ = builder.build().identification(
            forFileNamed: "README.1", kind: .regularFile, content: Array("EXAMPLE\u{1}".utf8))
        }
      }
      #expect(variants.count > 1_000)
      #expect(decoded < variants.count)
    }
  }

  @Test func aCacheFolderThatCannotBeMadeLeavesTheLoadUncached() async throws {
    try await withTemporaryDirectory("mime-cache") { folder in
      let mime = try makeMIMEFolder(in: folder)
      // A file where the folder would go: creating it fails for every user, root too.
      let blocker = folder.appendingPathComponent("cache")
      try Data("not a folder".utf8).write(to: blocker)
      let cache = MIMEDatabaseCache(directory: blocker.appendingPathComponent("folio"))
      let loaded = MIMEDatabase.load(mimeDirectories: [mime], cache: cache)
      #expect(loaded == MIMEDatabase.load(mimeDirectories: [mime]))
      #expect(try Data(contentsOf: blocker) == Data("not a folder".utf8))
    }
  }

  @Test(
    .enabled(
      if: SharedMIMEInfo.isInstalled, "shared-mime-info is not installed (bootstrap.sh installs it)"
    ))
  func theMachinesOwnDatabaseRoundTripsThroughTheCache() async throws {
    let system = SharedMIMEInfo.root
    try await withTemporaryDirectory("mime-cache") { folder in
      let cache = MIMEDatabaseCache(directory: folder)
      for languages in [[], nil] as [[String]?] {
        let uncached = MIMEDatabase.load(mimeDirectories: [system], languages: languages)
        _ = MIMEDatabase.load(mimeDirectories: [system], languages: languages, cache: cache)
        let cached = MIMEDatabase.load(
          mimeDirectories: [system], languages: languages, cache: cache)
        #expect(cached.types.count > 500)
        #expect(cached == uncached)
      }
    }
  }
}
