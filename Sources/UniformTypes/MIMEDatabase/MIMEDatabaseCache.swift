import FolioSystem
public import FoundationEssentials

/// A folder where loading a shared MIME database keeps a compact, pre-read form of it, so
/// the next load with the same files skips parsing their XML.
///
/// Passed to ``MIMEDatabase/load(files:languages:limits:cache:)``. A cache file records the
/// identity of every source file (device, inode, size, modification and change times), the
/// languages and the limits it was read with; a load uses it only when all of these are the
/// same, and otherwise reads the XML and replaces it. Anything wrong with a cache file
/// (truncated, damaged, from another version of Folio, unreadable) makes the load read the
/// XML as if there were none: the database loaded is always the one the files describe.
/// The cache is written beside its final name and moved into place, so a reader never sees
/// a partial one; a folder that cannot be written leaves the load uncached, silently.
///
/// The `folio` command keeps its cache in `$XDG_CACHE_HOME/folio` (`~/.cache/folio`).
public struct MIMEDatabaseCache: Sendable, Hashable {
  /// The folder holding the cache files (created when first needed).
  public var directory: URL

  /// A cache in a folder.
  ///
  /// - Parameter directory: The folder; it need not exist yet.
  public init(directory: URL) {
    self.directory = directory
  }

  /// The most bytes a cache file may have; a larger one is set aside.
  static let maximumSize = 256 << 20

  /// What a cache file must have been made from to stand for a load.
  struct Key: Equatable {
    /// The files, in load order, each with its identity.
    var files: [(path: String, identity: FileIdentity)]
    /// Folded language tags (sorted), or `nil` for every translation.
    var languages: [String]?
    var limits: MIMEDatabaseLimits

    static func == (a: Key, b: Key) -> Bool {
      a.languages == b.languages && a.limits == b.limits && a.files.count == b.files.count
        && zip(a.files, b.files).allSatisfy { $0.path == $1.path && $0.identity == $1.identity }
    }

    /// The key of a load, or `nil` when a file cannot be examined (the load reports it and
    /// is not cached).
    init?(files: [URL], languages: [String]?, limits: MIMEDatabaseLimits) {
      var identified: [(String, FileIdentity)] = []
      for file in files {
        guard let identity = try? FileIdentity(atPath: file.path) else { return nil }
        identified.append((file.path, identity))
      }
      self.init(
        files: identified,
        languages: languages.map { Set($0.map(MIMEDatabase.foldLanguage)).sorted() },
        limits: limits)
    }

    init(
      files: [(path: String, identity: FileIdentity)], languages: [String]?,
      limits: MIMEDatabaseLimits
    ) {
      self.files = files
      self.languages = languages
      self.limits = limits
    }

    /// The cache file's name: one per set of paths, languages and limits, so a change of
    /// file contents replaces its cache and a change of languages does not.
    var fileName: String {
      var encoder = MIMECacheEncoder()
      for file in files { encoder.string(file.path) }
      encodeSettings(into: &encoder)
      let hash = MIMEDatabaseCache.checksum(encoder.bytes)
      let hex = String(hash, radix: 16)
      return "mime-database-" + String(repeating: "0", count: 16 - hex.count) + hex + ".cache"
    }

    func encode(into encoder: inout MIMECacheEncoder) {
      encoder.unsigned(UInt64(files.count))
      for file in files {
        encoder.string(file.path)
        encoder.unsigned(file.identity.device)
        encoder.unsigned(file.identity.inode)
        encoder.integer(Int(file.identity.size))
        encoder.integer(Int(file.identity.modified))
        encoder.integer(Int(file.identity.changed))
      }
      encodeSettings(into: &encoder)
    }

    private func encodeSettings(into encoder: inout MIMECacheEncoder) {
      encoder.boolean(languages != nil)
      if let languages {
        encoder.unsigned(UInt64(languages.count))
        for language in languages { encoder.string(language) }
      }
      for value in [
        limits.maximumFileSize, limits.maximumTypes, limits.maximumGlobs,
        limits.maximumWildcardGlobs, limits.maximumPatternLength, limits.maximumMatches,
        limits.maximumMatchDepth, limits.maximumValueLength, limits.maximumContentExtent,
        limits.maximumTextLength, limits.maximumDiagnosticsPerFile,
      ] {
        encoder.integer(value)
      }
    }

    static func decode(from decoder: inout MIMECacheDecoder, limits: MIMEDatabaseLimits)
      throws(MIMECacheDecoder.Damaged) -> Key
    {
      var files: [(path: String, identity: FileIdentity)] = []
      for _ in 0..<(try decoder.count()) {
        let path = try decoder.string()
        let device = try decoder.unsigned()
        let inode = try decoder.unsigned()
        let size = try decoder.integer()
        let modified = try decoder.integer()
        let identity = FileIdentity(
          device: device, inode: inode, size: Int64(size), modified: Int64(modified),
          changed: Int64(try decoder.integer()))
        files.append((path, identity))
      }
      var languages: [String]?
      if try decoder.boolean() {
        var list: [String] = []
        for _ in 0..<(try decoder.count()) { list.append(try decoder.string()) }
        languages = list
      }
      var values: [Int] = []
      for _ in 0..<11 { values.append(try decoder.integer()) }
      let recorded = MIMEDatabaseLimits(
        maximumFileSize: values[0], maximumTypes: values[1], maximumGlobs: values[2],
        maximumWildcardGlobs: values[3], maximumPatternLength: values[4],
        maximumMatches: values[5], maximumMatchDepth: values[6], maximumValueLength: values[7],
        maximumContentExtent: values[8], maximumTextLength: values[9],
        maximumDiagnosticsPerFile: values[10])
      return Key(files: files, languages: languages, limits: recorded)
    }
  }

  // MARK: The file

  /// The first bytes of every cache file; the last two are the format's version, which
  /// changes whenever what is written changes.
  private static let magic: [UInt8] = Array("Folio MIME cache".utf8) + [0, 1]
  /// Magic, then the payload's length and checksum (eight bytes each, little-endian).
  private static let headerSize = magic.count + 16

  /// The database the cache holds for a key, or `nil` when it holds none that can be trusted.
  func read(_ key: Key) -> MIMEDatabase? {
    let path = directory.appendingPathComponent(key.fileName).path
    guard let bytes = try? FileContents.read(atPath: path, limit: Self.maximumSize),
      bytes.count >= Self.headerSize, bytes.starts(with: Self.magic)
    else { return nil }
    let length = Self.readLittleEndian(bytes, at: Self.magic.count)
    let checksum = Self.readLittleEndian(bytes, at: Self.magic.count + 8)
    guard length == UInt64(bytes.count - Self.headerSize) else { return nil }
    return bytes.withUnsafeBytes { raw -> MIMEDatabase? in
      let payload = UnsafeRawBufferPointer(rebasing: raw[Self.headerSize...])
      guard Self.checksum(payload) == checksum else { return nil }
      var decoder = MIMECacheDecoder(payload, limits: key.limits)
      do {
        guard try Key.decode(from: &decoder, limits: key.limits) == key else { return nil }
        let database = try decoder.database()
        return decoder.isAtEnd ? database : nil
      } catch {
        return nil
      }
    }
  }

  /// Writes a database's cache for a key; best effort (a cache is never needed).
  func write(_ database: MIMEDatabase, for key: Key) {
    var encoder = MIMECacheEncoder(reservingCapacity: 256 << 10)
    key.encode(into: &encoder)
    encoder.database(database)
    let payload = encoder.bytes
    var file = Self.magic
    file.reserveCapacity(Self.headerSize + payload.count)
    Self.appendLittleEndian(UInt64(payload.count), to: &file)
    Self.appendLittleEndian(Self.checksum(payload), to: &file)
    file += payload
    do {
      try FileTree.createFolders(atPath: directory.path, permissions: 0o700)
      try AtomicFile.write(
        file, to: directory.appendingPathComponent(key.fileName).path, permissions: 0o600)
    } catch {
      // Read-only, full or missing: the next load reads the XML again.
    }
  }

  // MARK: Bytes

  private static func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt64 {
    (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
  }

  private static func appendLittleEndian(_ value: UInt64, to bytes: inout [UInt8]) {
    for shift in stride(from: 0, to: 64, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
  }

  /// A 64-bit checksum of bytes, eight at a time (FNV-1a's constants, mixed per word).
  ///
  /// It finds damage and truncation, and costs about a millisecond for a large cache. It is
  /// not a defence against a forged file; the decoder's checks are.
  static func checksum(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBytes { checksum($0) }
  }

  static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    let prime: UInt64 = 0x0000_0100_0000_01b3
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      hash = (hash ^ UInt64(littleEndian: word)) &* prime
      hash ^= hash >> 32
      offset += 8
    }
    while offset < bytes.count {
      hash = (hash ^ UInt64(bytes[offset])) &* prime
      offset += 1
    }
    return hash ^ UInt64(bytes.count)
  }
}
