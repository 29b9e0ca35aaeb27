import FolioSystem
import FoundationEssentials
import Glibc

/// Opens an archive for reading entry by entry, choosing the reader by content.
///
/// - A zip (its signature first, or an end record closing a file behind a
///   self-extractor's stub) is read by Folio's own ``ZipArchive``, never by
///   libarchive.
/// - A compressed stream is peeled one layer at a time (gzip with zlib,
///   member by member; the others with libarchive's decoder for that one
///   compression) until what is left is not compressed, so nested
///   compression reads as bsdtar reads it.
/// - What is left is read by libarchive's format readers: a tar streams
///   through with its extension headers checked (``TarHeaderScanner``); an
///   uncompressed file of another format is read in place, with seeks.
/// - A zip or 7-Zip archive that arrives as a stream (a pipe, or inside a
///   compression) is first copied to an unnamed temporary file
///   (``ArchiveSpool``).
enum ArchiveOpener {
  /// Opens an archive.
  ///
  /// - Parameters:
  ///   - input: The file or standard input.
  ///   - policy: The entry limit (zip) and the byte and ratio limits for a copy.
  ///   - spoolFolder: Where a stream that must be copied goes (`nil`: the system's
  ///     temporary folder).
  /// - Returns: The entries' source.
  /// - Throws: ``PackagingError``: `archive-unreadable`, `empty-archive`,
  ///   `corrupt-archive` (no format recognised), and the zip reader's refusals.
  static func open(
    _ input: ArchiveInput, policy: ExpansionPolicy, spoolFolder: String? = nil
  ) throws -> any ArchiveEntrySource {
    let name = input.displayName
    let descriptor: Int32
    switch input {
    case .file(let url):
      descriptor = SystemCall.retryingInterrupts { Glibc.open(url.path, O_RDONLY | O_CLOEXEC) }
      guard descriptor >= 0 else {
        throw PackagingError(
          .archiveUnreadable, "cannot open '\(name)'", cause: SystemError(errno: errno))
      }
    case .standardInput:
      descriptor = SystemCall.retryingInterrupts { fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0) }
      guard descriptor >= 0 else {
        throw PackagingError(
          .archiveUnreadable, "cannot read standard input", cause: SystemError(errno: errno))
      }
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let code = errno
      close(descriptor)
      throw PackagingError(
        .archiveUnreadable, "cannot read '\(name)'", cause: SystemError(errno: code))
    }
    switch info.st_mode & S_IFMT {
    case S_IFDIR:
      close(descriptor)
      throw PackagingError(.archiveUnreadable, "'\(name)' is a folder, not an archive")
    case S_IFREG:
      guard info.st_size > 0 else {
        close(descriptor)
        throw PackagingError(.emptyArchive, "'\(name)' is empty (0 bytes), not an archive")
      }
      return try openFile(
        ArchiveFile(descriptor: descriptor, name: name), policy: policy, spoolFolder: spoolFolder)
    default:
      let base = FileByteSource(descriptor: descriptor, name: name, ownsDescriptor: true)
      return try openStream(base, size: nil, policy: policy, spoolFolder: spoolFolder)
    }
  }

  /// A regular file: zip, compressed, tar, or another format read in place.
  private static func openFile(
    _ file: ArchiveFile, policy: ExpansionPolicy, spoolFolder: String?
  ) throws -> any ArchiveEntrySource {
    let head = try file.bytes(at: 0, count: Int(min(file.size, 512))) ?? []
    if ZipArchive.startsLikeZip(head) {
      return ZipEntrySource(
        try ZipArchive(
          file: file, maxEntries: policy.maxEntryCount, nameEncoding: policy.nameEncoding))
    }
    if CompressionFilter.detect(head) != nil || looksLikeTar(head) {
      let base = try FileByteSource(
        descriptor: duplicate(file), name: file.name, ownsDescriptor: true)
      return try openStream(base, size: file.size, policy: policy, spoolFolder: spoolFolder)
    }
    if try ZipDirectoryLocation.endsLikeZip(file) {
      return ZipEntrySource(
        try ZipArchive(
          file: file, maxEntries: policy.maxEntryCount, nameEncoding: policy.nameEncoding))
    }
    return try libArchiveSource(file, policy: policy)
  }

  /// A file of another format, read in place by libarchive; an ISO 9660 image's Rock Ridge
  /// continuation areas and a xar's hard links checked first, since libarchive would loop
  /// on them forever.
  private static func libArchiveSource(
    _ file: ArchiveFile, policy: ExpansionPolicy
  ) throws -> any ArchiveEntrySource {
    if try RockRidgeContinuationCheck.isISO9660(file) {
      try RockRidgeContinuationCheck.check(file, maxRecords: policy.maxEntryCount)
    }
    if XarLinkCheck.startsLikeXar(try file.bytes(at: 0, count: 4) ?? []) {
      try XarLinkCheck.check(file)
    }
    return try LibArchiveSource(
      file: FileInput(descriptor: duplicate(file), name: file.name), name: file.name,
      size: file.size)
  }

  /// A stream: compression layers peeled, then a tar (or cpio, …) read as it comes, or a
  /// zip or 7-Zip archive copied to a temporary file first.
  private static func openStream(
    _ base: FileByteSource, size: Int64?, policy: ExpansionPolicy, spoolFolder: String?
  ) throws -> any ArchiveEntrySource {
    let name = base.name
    var layers: [CompressionFilter] = []
    var inflaters: [InflateByteSource] = []
    var top = PeekableByteSource(base)
    if CompressionFilter.detect(try top.peek(CompressionFilter.magicLength)) != nil {
      BoundedDecodedSource.allowSilentBytes(on: base, name: name)
    }
    while let filter = CompressionFilter.detect(try top.peek(CompressionFilter.magicLength)) {
      guard layers.count < CompressionFilter.maxLayers else {
        throw PackagingError(
          .unsupportedCompression,
          "'\(name)' is compressed more than \(CompressionFilter.maxLayers) times over")
      }
      layers.append(filter)
      let context = "'\(name)'"
      let decoded: any ByteSource
      if filter == .gzip {
        let inflater = try InflateByteSource(top, format: .gzip, context: context)
        inflaters.append(inflater)
        decoded = inflater
      } else {
        decoded = try LibArchiveFilterSource(top, filter: filter, name: name, context: context)
      }
      top = PeekableByteSource(decoded)
    }
    if !layers.isEmpty {
      // The last layer's output is what the format reader sees; measured against the bytes
      // of the file or pipe, it bounds every layer above it too.
      top = PeekableByteSource(
        BoundedDecodedSource(top, base: base, policy: policy, name: name))
    }
    let head = try top.peek(512)
    if try XarLinkCheck.startsLikeXar(head) || isISO9660(top.peek(isoSignatureEnd)) {
      // Checked in a file, as one read in place is (see libArchiveSource(_:policy:)).
      let copy = try ArchiveSpool.copy(
        top, name: name, into: spoolFolder, policy: policy,
        consumed: layers.isEmpty ? nil : { base.bytesRead })
      return try libArchiveSource(copy, policy: policy)
    }
    if ZipArchive.startsLikeZip(head) || head.starts(with: sevenZipSignature) {
      let copy = try ArchiveSpool.copy(
        top, name: name, into: spoolFolder, policy: policy,
        consumed: layers.isEmpty ? nil : { base.bytesRead })
      if ZipArchive.startsLikeZip(head) {
        return ZipEntrySource(
          try ZipArchive(
            file: copy, maxEntries: policy.maxEntryCount, nameEncoding: policy.nameEncoding))
      }
      return try LibArchiveSource(
        file: FileInput(descriptor: duplicate(copy), name: name), name: name, size: copy.size)
    }
    return try LibArchiveSource(
      decoded: top, base: base, layers: layers,
      scanner: looksLikeTar(head) ? TarHeaderScanner() : nil, inflaters: inflaters, name: name,
      size: size)
  }

  /// The 7-Zip signature, `7z\xBC\xAF\x27\x1C`.
  private static let sevenZipSignature: [UInt8] = [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]

  /// Where an ISO 9660 image's first volume descriptor's "CD001" ends.
  private static let isoSignatureEnd = 16 * 2048 + 6

  /// Whether the first bytes of a stream are an ISO 9660 image's.
  private static func isISO9660(_ head: [UInt8]) -> Bool {
    head.count >= isoSignatureEnd
      && head[(isoSignatureEnd - 5)..<isoSignatureEnd].elementsEqual("CD001".utf8)
  }

  /// Whether a block starts a POSIX or GNU tar (the `ustar` magic at offset 257).
  private static func looksLikeTar(_ head: [UInt8]) -> Bool {
    head.count >= 262 && head[257..<262].elementsEqual("ustar".utf8)
  }

  /// A second descriptor on the file, for a reader that moves a file position.
  private static func duplicate(_ file: ArchiveFile) throws -> Int32 {
    let descriptor = file.duplicateDescriptor()
    guard descriptor >= 0 else {
      throw PackagingError(
        .archiveUnreadable, "cannot read '\(file.name)'", cause: SystemError(errno: errno))
    }
    return descriptor
  }
}
