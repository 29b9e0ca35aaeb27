import Archives
import FolioSystem

#if !canImport(Darwin)
  import FoundationEssentials
  import Glibc

  extension FileWrapper {
    /// Options for writing a wrapper to disk.
    public struct WritingOptions: OptionSet, Sendable {
      public let rawValue: UInt
      public init(rawValue: UInt) { self.rawValue = rawValue }

      /// Write beside the destination and move into place only when complete.
      public static let atomic = WritingOptions(rawValue: 1 << 0)
      /// Set each wrapper's ``FileWrapper/filename`` to the name it was written under.
      public static let withNameUpdating = WritingOptions(rawValue: 1 << 1)
    }

    /// The work of ``write(to:options:originalContentsURL:)``.
    func writeTree(to url: URL, options: WritingOptions, originalContentsURL: URL?) throws {
      let target = url.standardizedFileURL.path
      let original = originalContentsURL?.standardizedFileURL.path
      var writer = FileWrapperTreeWriter(
        durable: options.contains(.atomic), updatesNames: options.contains(.withNameUpdating))
      guard options.contains(.atomic) else {
        if isDirectory, FileIdentity.of(path: target) != nil {
          throw PackagingError(
            .fileExists, "cannot write the folder '\(target)': something is already there")
        }
        try writer.write(self, at: target, original: original, display: target, replacing: true)
        if writer.updatesNames { filename = url.lastPathComponent }
        return
      }
      let temporary = TreeReplacement.temporarySibling(of: url).path
      do {
        try writer.write(self, at: temporary, original: original, display: target, replacing: false)
        try TreeReplacement.move(temporary, over: target)
      } catch {
        FileTree.remove(atPath: temporary)
        throw error
      }
      if writer.updatesNames { filename = url.lastPathComponent }
    }
  }

  /// Writes a wrapper tree, linking files that did not change from an original tree.
  struct FileWrapperTreeWriter {
    /// Whether every file and folder is flushed to disk (for atomic writes).
    let durable: Bool
    /// Whether wrappers learn the names they were written under.
    let updatesNames: Bool
    /// Files written and files linked, for callers that report.
    private(set) var writtenFiles = 0
    private(set) var linkedFiles = 0

    init(durable: Bool, updatesNames: Bool) {
      self.durable = durable
      self.updatesNames = updatesNames
    }

    mutating func write(
      _ wrapper: FileWrapper, at path: String, original: String?, display: String, replacing: Bool
    ) throws {
      switch wrapper.node {
      case .regularFile:
        try writeFile(wrapper, at: path, original: original, display: display, replacing: replacing)
      case .symbolicLink(let destination):
        if replacing { unlink(path) }
        guard symlink(destination, path) == 0 else {
          throw failure("cannot create the symbolic link '\(display)'", errno: errno)
        }
        if let date = wrapper.recordedModificationDate { Self.setTime(path, date) }
        wrapper.identity = FileIdentity.of(path: path)?.identity
      case .directory(let children):
        guard mkdir(path, 0o700) == 0 else {
          if errno == EEXIST {
            throw PackagingError(
              .fileExists, "cannot write the folder '\(display)': something is already there")
          }
          throw failure("cannot create the folder '\(display)'", errno: errno)
        }
        let originalIsFolder =
          original.flatMap { FileIdentity.of(path: $0) }.map { $0.mode & S_IFMT == S_IFDIR }
          ?? false
        // Plain keys keep their names; keys Foundation made unique take the free ones left.
        var used = Set(children.keys.filter { !$0.contains(FileWrapper.uniquingMarker) })
        for key in children.keys.sorted() {
          guard let child = children[key] else { continue }
          let name = Self.fileName(for: key, child: child, used: &used)
          try Self.checkName(name, in: display)
          try write(
            child, at: path + "/" + name,
            original: originalIsFolder ? original.map { $0 + "/" + name } : nil,
            display: display + "/" + name, replacing: false)
          if updatesNames { child.filename = name }
        }
        let mode = wrapper.recordedPermissions ?? 0o755
        let attributes = wrapper.recordedExtendedAttributes
        let folder =
          attributes.isEmpty ? -1 : open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        defer { if folder >= 0 { close(folder) } }
        if folder >= 0 {
          try FileWrapper.setRecorded(
            attributes, descriptor: folder, afterMode: false, display: display)
        }
        if chmod(path, mode) != 0 {
          throw failure("cannot set the permissions of '\(display)'", errno: errno)
        }
        if folder >= 0 {
          try FileWrapper.setRecorded(
            attributes, descriptor: folder, afterMode: true, display: display)
        }
        if let date = wrapper.recordedModificationDate { Self.setTime(path, date) }
        if durable { FileTree.synchronizeFolder(path) }
        wrapper.identity = FileIdentity.of(path: path)?.identity
      }
    }

    /// Links an unchanged file from the original, or writes the wrapper's bytes.
    private mutating func writeFile(
      _ wrapper: FileWrapper, at path: String, original: String?, display: String, replacing: Bool
    ) throws {
      if let original, try Self.isUnchanged(wrapper, comparedWith: original) {
        if replacing { unlink(path) }
        if link(original, path) == 0 {
          linkedFiles += 1
          wrapper.identity = FileIdentity.of(path: path)?.identity
          Self.noteWritten(wrapper)
          return
        }
        // Another file system, or links not allowed: copy below.
      }
      let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (replacing ? O_TRUNC : O_EXCL)
      let mode = wrapper.recordedPermissions ?? 0o644
      let descriptor = open(path, flags, mode)
      guard descriptor >= 0 else {
        throw failure("cannot create '\(display)'", errno: errno)
      }
      var closed = false
      defer { if !closed { close(descriptor) } }
      try wrapper.readRegularFileContents { chunk in
        let code = chunk.withUnsafeBytes { SystemCall.writeAll(descriptor, $0) }
        if code != 0 { throw failure("cannot write '\(display)'", errno: code) }
      }
      let attributes = wrapper.recordedExtendedAttributes
      try FileWrapper.setRecorded(
        attributes, descriptor: descriptor, afterMode: false, display: display)
      if fchmod(descriptor, mode) != 0 {
        throw failure("cannot set the permissions of '\(display)'", errno: errno)
      }
      try FileWrapper.setRecorded(
        attributes, descriptor: descriptor, afterMode: true, display: display)
      if let date = wrapper.recordedModificationDate {
        var times = [Self.timespec(date), Self.timespec(date)]
        _ = futimens(descriptor, &times)
      }
      if durable, SystemCall.retryingInterrupts({ fsync(descriptor) }) != 0 {
        throw failure("cannot flush '\(display)' to disk", errno: errno)
      }
      closed = true
      close(descriptor)
      writtenFiles += 1
      wrapper.identity = FileIdentity.of(path: path)?.identity
      Self.noteWritten(wrapper)
    }

    /// Remembers which file a wrapper's bytes now sit in, so the next write links it unread.
    private static func noteWritten(_ wrapper: FileWrapper) {
      guard case .regularFile(.memory(let data, _)) = wrapper.node, let identity = wrapper.identity
      else { return }
      wrapper.node = .regularFile(.memory(data, written: identity))
    }

    /// Whether a regular-file wrapper holds exactly the bytes of the file at `original`.
    ///
    /// A wrapper read from that very file (same device, inode, size and modification
    /// time) is unchanged without reading anything; otherwise sizes are compared, then bytes.
    static func isUnchanged(_ wrapper: FileWrapper, comparedWith original: String) throws -> Bool {
      guard let (identity, mode) = FileIdentity.of(path: original), mode & S_IFMT == S_IFREG,
        case .regularFile(let storage) = wrapper.node
      else { return false }
      switch storage {
      case .disk(_, let known) where known == identity: return true
      case .memory(_, let written?) where written == identity: return true
      default: break
      }
      guard wrapper.regularFileSize == identity.size else { return false }
      return try sameBytes(wrapper, path: original, expected: identity)
    }

    private static func sameBytes(_ wrapper: FileWrapper, path: String, expected: FileIdentity)
      throws -> Bool
    {
      let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
      guard descriptor >= 0 else { return false }
      defer { close(descriptor) }
      var buffer = [UInt8](repeating: 0, count: FileWrapper.readChunkSize)
      var equal = true
      try wrapper.readRegularFileContents { chunk in
        guard equal else { return }
        var offset = 0
        while offset < chunk.count {
          let wanted = min(buffer.count, chunk.count - offset)
          let count = buffer.withUnsafeMutableBytes {
            Glibc.read(descriptor, $0.baseAddress, wanted)
          }
          if count < 0 && errno == EINTR { continue }
          guard count > 0,
            chunk[(chunk.startIndex + offset)..<(chunk.startIndex + offset + count)]
              .elementsEqual(buffer[0..<count])
          else {
            equal = false
            return
          }
          offset += count
        }
      }
      guard equal else { return false }
      var extra: UInt8 = 0
      return Glibc.read(descriptor, &extra, 1) == 0
    }

    /// The name a child is written under: its key, or for a key Foundation made unique
    /// (`1__#$!@%!#__page.txt`), its preferred name made unique (`page 2.txt`) against
    /// `used`, which holds the plain keys and the names given so far.
    static func fileName(for key: String, child: FileWrapper, used: inout Set<String>) -> String {
      guard let marker = key.firstRange(of: FileWrapper.uniquingMarker) else { return key }
      let base = child.preferredFilename ?? String(key[marker.upperBound...])
      var candidate = base
      var number = 2
      let name = URL(filePath: base, directoryHint: .notDirectory)
      let stem = name.deletingPathExtension().lastPathComponent
      let ext = name.pathExtension
      while used.contains(candidate) {
        candidate = ext.isEmpty ? "\(stem) \(number)" : "\(stem) \(number).\(ext)"
        number += 1
      }
      used.insert(candidate)
      return candidate
    }

    /// Refuses child names that would write outside their folder.
    static func checkName(_ name: String, in folder: String) throws {
      if name.isEmpty || name == "." || name == ".." || name.contains("/") || name.contains("\0") {
        throw PackagingError(
          .fileWriteFailed, "cannot write a child named '\(name)' in '\(folder)': not a file name")
      }
    }

    private static func timespec(_ date: Date) -> Glibc.timespec {
      let seconds = date.timeIntervalSince1970.rounded(.down)
      return Glibc.timespec(
        tv_sec: Int(seconds), tv_nsec: Int(((date.timeIntervalSince1970 - seconds) * 1e9).rounded())
      )
    }

    private static func setTime(_ path: String, _ date: Date) {
      var times = [timespec(date), timespec(date)]
      _ = utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
    }

    private func failure(_ message: String, errno code: Int32) -> PackagingError {
      PackagingError(
        .fileWriteFailed, "\(message): \(String(cString: strerror(code)))",
        cause: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }
  }
#endif
