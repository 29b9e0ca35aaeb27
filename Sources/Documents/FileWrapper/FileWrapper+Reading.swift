import Archives
import FolioSystem

#if !canImport(Darwin)
  public import FoundationEssentials
  import Glibc

  /// `read(2)`, named so that FileWrapper's own `read(from:options:)` does not hide it.
  private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
    -> Int
  {
    read(descriptor, buffer, count)
  }

  extension FileWrapper {
    /// Options for reading a wrapper from disk.
    public struct ReadingOptions: OptionSet, Sendable {
      public let rawValue: UInt
      public init(rawValue: UInt) { self.rawValue = rawValue }

      /// Read every regular file's bytes now rather than on first access.
      public static let immediate = ReadingOptions(rawValue: 1 << 0)
      /// Do not memory-map files (Folio never does; accepted for compatibility).
      public static let withoutMapping = ReadingOptions(rawValue: 1 << 1)
    }

    /// How many bytes a chunked read hands over at a time.
    public static let readChunkSize = 256 * 1024

    /// Reads the file, folder or symbolic link at `url`.
    ///
    /// A folder's whole structure is read now; regular files' bytes on first access,
    /// or now with ``ReadingOptions/immediate``. Symbolic links are recorded, never
    /// followed (a link at `url` itself is read as a link).
    ///
    /// - Parameters:
    ///   - url: The item to read.
    ///   - options: ``ReadingOptions/immediate`` to read every file's bytes now.
    /// - Throws: What Apple's `FileWrapper` throws: `CocoaError` `fileReadNoSuchFile` when
    ///   `url` does not exist, `fileReadNoPermission` when an item may not be read,
    ///   `fileReadUnknown` otherwise (a device, socket or pipe), each with the URL and path
    ///   (`NSURLErrorKey`, `NSFilePathErrorKey`) and Folio's ``PackagingError`` naming the
    ///   item as `NSUnderlyingErrorKey`.
    public convenience init(url: URL, options: ReadingOptions = []) throws {
      let (path, node, identity, mode) = try FileWrapper.throwingCocoaErrors(reading: url) {
        try FileWrapper.readRoot(url)
      }
      self.init(node: node, displayPath: path)
      adopt(identity: identity, mode: mode, name: url.lastPathComponent)
      adoptExtendedAttributes(path: path, mode: mode)
      if options.contains(.immediate) {
        try FileWrapper.throwingCocoaErrors(reading: url) { try loadAllContents() }
      }
    }

    /// Reads the item at `url` as ``init(url:options:)`` does, throwing Folio's own error
    /// (for Folio's formats, whose failures keep their stable codes).
    ///
    /// - Parameter url: The item to read.
    /// - Throws: ``PackagingError`` `file-vanished` when `url` does not exist,
    ///   `file-unreadable` when an item cannot be listed or read, or is a device,
    ///   socket or pipe.
    package convenience init(readingContentsOf url: URL) throws {
      let (path, node, identity, mode) = try FileWrapper.readRoot(url)
      self.init(node: node, displayPath: path)
      adopt(identity: identity, mode: mode, name: url.lastPathComponent)
      adoptExtendedAttributes(path: path, mode: mode)
    }

    /// The item at `url`: its path, structure, identity and mode.
    private static func readRoot(_ url: URL) throws -> (String, Node, FileIdentity, mode_t) {
      let path = url.standardizedFileURL.path
      guard let (identity, mode) = FileIdentity.of(path: path) else {
        throw FileWrapper.openError(path: path, code: errno)
      }
      let node = try FileWrapper.readNode(path: path, display: path, identity: identity, mode: mode)
      return (path, node, identity, mode)
    }

    /// The work of ``read(from:options:)``.
    func reread(from url: URL, options: ReadingOptions) throws {
      let path = url.standardizedFileURL.path
      guard let (identity, mode) = FileIdentity.of(path: path) else {
        throw FileWrapper.openError(path: path, code: errno)
      }
      let fresh = try rereadNode(path: path, display: path, identity: identity, mode: mode)
      node = fresh
      linkChildren()
      displayPath = path
      adopt(identity: identity, mode: mode, name: url.lastPathComponent)
      adoptExtendedAttributes(path: path, mode: mode)
      if options.contains(.immediate) { try loadAllContents() }
    }

    // MARK: Folio's additions

    /// A regular file's size in bytes, known without reading it; `nil` for other kinds.
    public var regularFileSize: Int64? {
      guard case .regularFile(let storage) = node else { return nil }
      switch storage {
      case .memory(let data, _): return Int64(data.count)
      case .disk(_, let identity): return identity.size
      case .source(let source): return source.byteCount
      }
    }

    /// A regular file's bytes, read now if they were not yet, and kept.
    ///
    /// - Returns: The bytes.
    /// - Throws: ``PackagingError`` naming the file: `file-vanished` when it was removed
    ///   or moved after the wrapper was read, `file-replaced` when it was changed,
    ///   `file-unreadable` for other failures or when the wrapper is not a regular file.
    public func readRegularFileContents() throws -> Data {
      guard case .regularFile(let storage) = node else {
        throw PackagingError(.fileUnreadable, "'\(displayPath)' is not a regular file")
      }
      if case .memory(let data, _) = storage { return data }
      var data = Data()
      if let size = regularFileSize { data.reserveCapacity(Int(clamping: size)) }
      try readRegularFileContents { data.append($0) }
      if case .disk(_, let identity) = storage {
        node = .regularFile(.memory(data, written: identity))
      } else {
        node = .regularFile(.memory(data))
      }
      return data
    }

    /// Hands a regular file's bytes to `body` in chunks, reading one chunk at a time, so a
    /// large file never sits in memory whole (bytes already read are handed over from memory).
    ///
    /// - Parameters:
    ///   - chunkSize: The most bytes per call.
    ///   - body: Receives each chunk in order; may throw to stop.
    /// - Throws: As ``readRegularFileContents()``; whatever `body` throws.
    public func readRegularFileContents(
      chunkSize: Int = FileWrapper.readChunkSize, _ body: (Data) throws -> Void
    ) throws {
      guard case .regularFile(let storage) = node else {
        throw PackagingError(.fileUnreadable, "'\(displayPath)' is not a regular file")
      }
      switch storage {
      case .memory(let data, _):
        var offset = 0
        while offset < data.count {
          let end = min(offset + chunkSize, data.count)
          try body(data.subdata(in: offset..<end))
          offset = end
        }
      case .disk(let path, let identity):
        try Self.stream(path: path, expected: identity, display: displayPath, chunkSize, body)
      case .source(let source):
        try source.readContents(chunkSize: chunkSize, body)
      }
    }

    // MARK: Internals

    /// Records what reading an item found: its name, identity and attributes.
    func adopt(identity: FileIdentity, mode: mode_t, name: String) {
      self.identity = identity
      filename = name
      if preferredFilename == nil { preferredFilename = name }
      fileAttributes[FileAttributeKey.posixPermissions.rawValue] = Int(mode & 0o7777)
      fileAttributes[FileAttributeKey.modificationDate.rawValue] = identity.modificationDate
    }

    /// The permission bits recorded in ``fileAttributes``, if any.
    var recordedPermissions: mode_t? {
      let value = fileAttributes[FileAttributeKey.posixPermissions.rawValue]
      // An Int from FileManager, an NSNumber (which casts to Int) from code written for
      // Apple's, or any other integer a program put there.
      if let number = value as? Int { return mode_t(truncatingIfNeeded: number) & 0o7777 }
      if let number = value as? any BinaryInteger {
        return mode_t(truncatingIfNeeded: number) & 0o7777
      }
      return nil
    }

    /// The modification date recorded in ``fileAttributes``, if any.
    var recordedModificationDate: Date? {
      fileAttributes[FileAttributeKey.modificationDate.rawValue] as? Date
    }

    private func loadAllContents() throws {
      switch node {
      case .regularFile: _ = try readRegularFileContents()
      case .directory(let children): for child in children.values { try child.loadAllContents() }
      case .symbolicLink: break
      }
    }

    static func openError(path: String, code: Int32) -> PackagingError {
      if code == ENOENT || code == ENOTDIR {
        return PackagingError(
          .fileVanished, "'\(path)' does not exist",
          cause: POSIXError(POSIXErrorCode(rawValue: code) ?? .ENOENT))
      }
      return PackagingError(
        .fileUnreadable, "cannot read '\(path)'",
        cause: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }

    /// Reads one item's structure: a folder's children recursively, a link's destination.
    static func readNode(path: String, display: String, identity: FileIdentity, mode: mode_t)
      throws -> Node
    {
      switch mode & S_IFMT {
      case S_IFREG:
        return .regularFile(.disk(path: path, identity: identity))
      case S_IFLNK:
        return .symbolicLink(try linkDestination(path: path, display: display))
      case S_IFDIR:
        var children: [String: FileWrapper] = [:]
        for name in try listing(path: path, display: display) {
          let childPath = path + "/" + name
          // Removed while listing: not part of the snapshot.
          guard let (childIdentity, childMode) = FileIdentity.of(path: childPath) else { continue }
          let childDisplay = display + "/" + name
          let child = FileWrapper(
            node: try readNode(
              path: childPath, display: childDisplay, identity: childIdentity, mode: childMode),
            displayPath: childDisplay)
          child.adopt(identity: childIdentity, mode: childMode, name: name)
          try refuseSecondSpelling(of: name, in: children, folder: display)
          child.adoptExtendedAttributes(path: childPath, mode: childMode)
          children[name] = child
        }
        return .directory(children)
      default:
        throw PackagingError(
          .fileUnreadable,
          "'\(display)' is a device, socket or pipe, which a file wrapper cannot hold")
      }
    }

    /// Rereads an item, keeping this wrapper's children that still match.
    private func rereadNode(path: String, display: String, identity: FileIdentity, mode: mode_t)
      throws -> Node
    {
      guard mode & S_IFMT == S_IFDIR, case .directory(let old) = node else {
        if mode & S_IFMT == S_IFREG, self.identity == identity, isRegularFile { return node }
        return try Self.readNode(path: path, display: display, identity: identity, mode: mode)
      }
      var children: [String: FileWrapper] = [:]
      for name in try Self.listing(path: path, display: display) {
        let childPath = path + "/" + name
        guard let (childIdentity, childMode) = FileIdentity.of(path: childPath) else { continue }
        try Self.refuseSecondSpelling(of: name, in: children, folder: display)
        if let kept = old[name], kept.matches(path: childPath, comparingPermissions: true) {
          children[name] = kept
          continue
        }
        let childDisplay = display + "/" + name
        let child = old[name] ?? FileWrapper(node: .directory([:]), displayPath: childDisplay)
        child.node = try child.rereadNode(
          path: childPath, display: childDisplay, identity: childIdentity, mode: childMode)
        child.linkChildren()
        child.displayPath = childDisplay
        child.adopt(identity: childIdentity, mode: childMode, name: name)
        child.adoptExtendedAttributes(path: childPath, mode: childMode)
        children[name] = child
      }
      return .directory(children)
    }

    /// Whether the wrapper matches the item at `path` (see ``matchesContents(of:)``).
    func matches(path: String, comparingPermissions: Bool) -> Bool {
      guard let (identity, mode) = FileIdentity.of(path: path) else { return false }
      if comparingPermissions, let recorded = recordedPermissions, recorded != mode & 0o7777 {
        return false
      }
      switch node {
      case .regularFile:
        guard mode & S_IFMT == S_IFREG else { return false }
        if let known = self.identity, known == identity { return true }
        guard let date = recordedModificationDate, let size = regularFileSize else { return false }
        return size == identity.size && date == identity.modificationDate
      case .symbolicLink(let destination):
        guard mode & S_IFMT == S_IFLNK else { return false }
        return (try? Self.linkDestination(path: path, display: path)) == destination
      case .directory(let children):
        guard mode & S_IFMT == S_IFDIR,
          let names = try? Self.listing(path: path, display: path),
          Set(names) == Set(children.keys)
        else { return false }
        return children.allSatisfy {
          $0.value.matches(path: path + "/" + $0.key, comparingPermissions: comparingPermissions)
        }
      }
    }

    /// Refuses a folder holding two names that are one name to Swift: children are keyed
    /// by `String`, whose `==` holds composed and decomposed spellings (`caf\u{E9}` and
    /// `cafe\u{301}`) equal, so keeping the second would drop the first without a word.
    static func refuseSecondSpelling(
      of name: String, in children: [String: FileWrapper], folder: String
    ) throws {
      guard children[name] != nil, let first = children.keys.first(where: { $0 == name }) else {
        return
      }
      func spelled(_ text: String) -> String {
        text.unicodeScalars.map { scalar in
          scalar.isASCII && scalar.value >= 0x20
            ? String(scalar) : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }.joined()
      }
      throw PackagingError(
        .nameCollision,
        "'\(folder)' holds '\(spelled(first))' and '\(spelled(name))', one name in two Unicode normalisations; a file wrapper can hold only one of them"
      )
    }

    static func listing(path: String, display: String) throws -> [String] {
      do {
        return try FolderListing.names(atPath: path)
      } catch {
        throw openError(path: display, code: error.errno)
      }
    }

    static func linkDestination(path: String, display: String) throws -> String {
      var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = buffer.withUnsafeMutableBufferPointer { pointer in
        pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) {
          readlink(path, $0, pointer.count)
        }
      }
      guard count >= 0 else { throw openError(path: display, code: errno) }
      guard let text = String(validating: buffer[0..<count], as: UTF8.self) else {
        throw PackagingError(
          .fileUnreadable, "the symbolic link '\(display)' points at a name that is not UTF-8")
      }
      return text
    }

    /// Streams a file read lazily, refusing it when it is not the file the wrapper saw.
    static func stream(
      path: String, expected: FileIdentity, display: String, _ chunkSize: Int,
      _ body: (Data) throws -> Void
    ) throws {
      let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
      guard descriptor >= 0 else {
        let code = errno
        if code == ENOENT || code == ENOTDIR || code == ELOOP {
          throw PackagingError(
            .fileVanished,
            "'\(display)' is gone: it was removed or moved after it was read as part of its folder",
            cause: POSIXError(POSIXErrorCode(rawValue: code) ?? .ENOENT))
        }
        throw openError(path: display, code: code)
      }
      defer { close(descriptor) }
      var info = stat()
      guard fstat(descriptor, &info) == 0 else { throw openError(path: display, code: errno) }
      guard FileIdentity(info) == expected else {
        throw PackagingError(
          .fileReplaced, "'\(display)' was changed after it was read as part of its folder")
      }
      // A small file needs no full-size buffer; one byte more than its size sees the end at once.
      let bufferSize =
        expected.size >= 0 && expected.size < Int64(chunkSize) ? Int(expected.size) + 1 : chunkSize
      var buffer = [UInt8](repeating: 0, count: max(1, bufferSize))
      var total: Int64 = 0
      while true {
        let count = buffer.withUnsafeMutableBytes {
          systemRead(descriptor, $0.baseAddress, $0.count)
        }
        if count < 0 {
          if errno == EINTR { continue }
          throw openError(path: display, code: errno)
        }
        if count == 0 { break }
        total += Int64(count)
        guard total <= expected.size else { break }
        try body(Data(buffer[0..<count]))
      }
      guard total == expected.size else {
        throw PackagingError(
          .fileReplaced, "'\(display)' changed size while it was being read")
      }
    }
  }
#endif
