import FolioSystem
public import FoundationEssentials
import Glibc
public import ProgressReporting

/// Flattens a folder (a package document, or any folder) into one archive.
///
/// ```swift
/// let result = try await Packer.pack(
///   URL(fileURLWithPath: "Notebook.examplenotebook"),
///   to: URL(fileURLWithPath: "Notebook.zip"))
/// ```
///
/// The tree is walked in sorted order without following symbolic links;
/// each file is streamed in ``ArchiveWriter/chunkSize`` chunks; the archive
/// is written to a temporary file beside the output and renamed into place
/// only when complete, so a failure or cancellation leaves the output path as
/// it was. Kept: folders (empty ones too), file bytes, permission bits,
/// modification times, symbolic links as links, hard links once (tar), UTF-8
/// names. Refused, naming the path: sockets, devices, FIFOs, and (unless
/// allowed) links that point outside the package.
///
/// Progress: the reporter's file count ends at the number of regular files,
/// its byte count at the bytes read; its units are those bytes plus one per
/// entry.
public enum Packer {
  /// Packs a folder into an archive, off the cooperative thread pool, holding
  /// a shared ``PackageLock`` on the folder so no `folio expand` rewrites it meanwhile.
  ///
  /// Cancelling the calling task stops the work between chunks; the
  /// temporary file is removed and `CancellationError` thrown. A folder whose
  /// parent cannot hold a lock file (read-only, and none there yet) is packed
  /// without the lock.
  ///
  /// - Parameters:
  ///   - source: The folder to pack.
  ///   - output: The archive to write; an existing one is refused, replaced or updated as
  ///     ``PackOptions/replacePolicy`` says.
  ///   - options: Format, compression and what to keep.
  ///   - lockOptions: How long to wait for another process's exclusive lock, and whom to
  ///     tell when it waits.
  ///   - progress: Where to report files and bytes.
  /// - Returns: What was written.
  /// - Throws: ``PackagingError`` naming the path that failed (`output-exists` before any
  ///   work, `lock-timeout` when the lock stays held), or `CancellationError`.
  public static func pack(
    _ source: URL, to output: URL, options: PackOptions = PackOptions(),
    lockOptions: LockOptions = .default, progress: consuming Subprogress = .untracked()
  ) async throws -> PackResult {
    let reporter = progress.start(totalCount: 1)
    defer { reporter.end() }
    try reporter.checkCancellation()
    let lock: PackageLock?
    do {
      lock = try await PackageLock.acquire(
        .shared, on: source, options: lockOptions)
    } catch let error as PackagingError where error.code != .lockTimeout {
      let parent = source.standardizedFileURL.deletingLastPathComponent().path
      guard access(parent, W_OK) != 0 else { throw error }
      lock = nil
    }
    defer { lock?.release() }
    return try await runBlocking(cancelling: reporter) {
      try packCore(source, to: output, options: options, reporter: reporter)
    }
  }

  /// Packs a folder into an archive on the calling thread, without a lock (for tests
  /// and the fuzz targets of this package).
  ///
  /// The synchronous core of ``pack(_:to:options:lockOptions:progress:)``:
  /// it checks the reporter (and the current task) for cancellation between
  /// chunks. It takes no lock: callers that may race with other processes hold
  /// a shared ``PackageLock`` on the source around it.
  ///
  /// - Parameters:
  ///   - source: The folder to pack.
  ///   - output: The archive to write; an existing one is refused, replaced or updated as
  ///     ``PackOptions/replacePolicy`` says.
  ///   - options: Format, compression and what to keep.
  ///   - progress: Where to report files and bytes.
  /// - Returns: What was written.
  /// - Throws: ``PackagingError`` naming the path that failed, or `CancellationError`.
  package static func packSynchronously(
    _ source: URL, to output: URL, options: PackOptions = PackOptions(),
    progress: consuming Subprogress = .untracked()
  ) throws -> PackResult {
    let reporter = progress.start(totalCount: 1)
    defer { reporter.end() }
    return try packCore(source, to: output, options: options, reporter: reporter)
  }

  /// The format an output name implies, or the options' explicit one.
  ///
  /// - Parameters:
  ///   - output: The archive's path.
  ///   - options: The pack options.
  /// - Returns: The format to write.
  /// - Throws: ``PackagingErrorDomain/Code/unknownFormat`` when neither says.
  public static func format(for output: URL, options: PackOptions) throws -> ArchiveFormat {
    if let format = options.format { return format }
    if let format = ArchiveFormat(
      fileName: output.lastPathComponent, registry: options.typeRegistry)
    {
      return format
    }
    let known = ArchiveFormat.allCases.map { "." + $0.fileExtension }.joined(separator: ", ")
    throw PackagingError(
      .unknownFormat,
      "cannot tell the archive format from '\(output.lastPathComponent)': name it \(known), or give a format"
    )
  }

  private static func packCore(
    _ source: URL, to output: URL, options: PackOptions, reporter: ProgressManager
  ) throws -> PackResult {
    _ = try PackagingError.check(options.replacePolicy, outputAt: output.path, updatable: true)
    var options = options
    if options.replacePolicy == .update && options.previousArchive == nil {
      options.previousArchive = output
    }
    let format = try format(for: output, options: options)
    let sourcePath = source.path
    let root = open(sourcePath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard root >= 0 else {
      let code = errno
      if code == ENOTDIR {
        throw PackagingError(.notADirectory, "cannot pack '\(sourcePath)': it is not a folder")
      }
      throw PackagingError.system("cannot open '\(sourcePath)'", errno: code)
    }
    defer { close(root) }
    let rootName = try topFolderName(source: source, output: output)
    let writerOptions = ArchiveWriterOptions(
      compressionLevel: options.compressionLevel, compression: options.compression,
      reproducible: options.reproducible || options.sourceDateEpoch != nil,
      sourceDateEpoch: options.sourceDateEpoch, typeRegistry: options.typeRegistry,
      jobs: options.jobs)
    let openIndex = try reuseIndexOpener(options: options, format: format, output: output)

    try reporter.checkCancellation()
    // A zip without AppleDouble entries has no place for them: they are not read.
    let storesAttributes =
      options.storesExtendedAttributes && (format.isTar || options.storesAppleDouble)
    var walker = PackageWalker(
      root: root, rootPath: sourcePath, allowExternalSymlinks: options.allowExternalSymlinks)
    walker.selection = options.selection
    walker.listsAttributes = storesAttributes
    walker.looksUpInParallel = writerOptions.resolvedJobs > 1
    // The archive's top folder is in every path the walk makes, rather than joined to each.
    walker.topFolder = options.keepParent ? rootName : ""
    let storesHardLinks = format.isTar
    // The walks' closures capture these, not the options or the walker: a captured
    // `PackOptions` was copied (its registry and selection retained and released) at every
    // entry.
    let keepParent = options.keepParent
    let topFolder = walker.topFolder
    // An update reads little more than the tree's metadata: it walks once, on a thread of
    // its own that hands the entries over as it goes, so they are written while later names
    // are still looked up (its total known only at the end). A fresh pack counts first.
    let handoff = openIndex != nil ? PackageWalker.Handoff() : nil
    let walking = handoff.map { handoff in
      BackgroundWork(inBackground: writerOptions.resolvedJobs > 1) { [walker] in
        walker.walk(handingOffTo: handoff)
      }
    }
    defer {
      handoff?.stop()
      walking?.wait()
    }
    // Then the earlier archive is read and checked on a thread of its own while the tree is
    // walked, the two taking about as long (with one job, in turn). The walk starts first:
    // its listing is what the lookups, and so the rest, wait for.
    let opening = openIndex.map { open in
      BackgroundWork(inBackground: writerOptions.resolvedJobs > 1, open)
    }
    defer { opening?.wait() }
    var reuse = try opening?.take()

    var totals = PackProgressTotals(
      reporter: reporter, storesHardLinks: storesHardLinks, keepParent: keepParent)
    if handoff == nil {
      totals.publish(try walker.count())
    } else {
      totals.clearTotal()
    }
    /// Visits the entries: the handed-over walk's the first time, then (for the rare name
    /// that may collide) a walk of the tree, as a fresh pack does. The handed-over entries
    /// are not kept: each chunk's memory is reused for the next, where keeping them touched
    /// new pages for all of them.
    func walkEntries(_ visit: (PackageWalker.Item) throws -> Void) throws {
      guard let handoff, totals.walk == nil else { return try walker.walk(visit) }
      while let chunk = try handoff.next() {
        // Each item visited where it lies: a `for` loop copies it (its path retained).
        try chunk.withUnsafeBufferPointer { items in
          for index in items.indices { try visit(items[index]) }
        }
      }
      totals.publish(try handoff.totals)
    }

    var counts = (directories: 0, files: 0, links: 0, hardLinks: 0)
    var reusedCount = 0
    var collisions = NameCollisionFinder(
      expectedCount: totals.walk?.entries ?? reuse?.entryCount ?? 0)
    var nameCollisions: [NameCollision] = []
    /// An item's path on disk, for reading its attributes and for messages.
    func diskPath(_ item: PackageWalker.Item) -> String {
      PackageWalker.join(sourcePath, PackageWalker.packagePath(of: item.path, under: topFolder))
    }
    /// An item's extended attributes, when kept: none without a call when the walk found
    /// none (most files), else read by path.
    func attributes(of item: PackageWalker.Item) throws -> [ExtendedAttribute] {
      guard storesAttributes, item.attributeListLength != 0 else { return [] }
      switch item.kind {
      case .directory, .file: break
      case .symbolicLink, .hardLink: return []
      }
      let path = diskPath(item)
      return try ExtendedAttribute.read(atPath: path, displayPath: path)
    }
    /// An item's name in the archive; `nil` for the root when it is not kept.
    func archivePath(_ item: PackageWalker.Item) -> String? {
      item.path.isEmpty ? nil : item.path
    }
    let (entries, stored, bytes) = try withArchiveWriter(
      at: output, format: format, options: writerOptions,
      replacing: options.replacePolicy.replacesExisting, progress: reporter
    ) { writer in
      // The writer holds the earlier archive from here, and lets go of it once the new
      // archive is in place.
      writer.reuse = reuse.take()
      try walkEntries { item in
        guard let path = archivePath(item) else { return }
        collisions.record(path)
        var metadata = ArchiveWriter.Metadata(item.info)
        metadata.extendedAttributes = try attributes(of: item)
        if !metadata.extendedAttributes.isEmpty {
          reporter.completeExtendedAttributes(
            storesHardLinks
              ? metadata.extendedAttributes.count
              : metadata.extendedAttributes.count { $0.name.hasPrefix("user.") })
        }
        switch item.kind {
        case .directory:
          try writer.writeDirectory(path: path, metadata: metadata)
          counts.directories += 1
        case .symbolicLink(let target):
          try writer.writeSymbolicLink(path: path, target: target, metadata: metadata)
          counts.links += 1
        case .hardLink(let first, _) where storesHardLinks:
          try writer.writeHardLink(path: path, target: first, metadata: metadata)
          counts.hardLinks += 1
          counts.files += 1
        case .file, .hardLink:
          try writeFile(
            item, as: path, metadata: metadata, root: root, sourcePath: sourcePath,
            topFolder: topFolder, writer: writer)
          counts.files += 1
        }
        if !storesHardLinks, !metadata.extendedAttributes.isEmpty {
          try writeAppleDouble(
            of: path, metadata: metadata, displayPath: diskPath(item), writer: writer,
            counting: { totals.countAppleDouble(bytes: $0) })
        }
      }
      try writer.flush()
      reusedCount = writer.reuse?.reusedCount ?? 0
      // Only when a name may collide: a third walk names the first spelling (before the
      // archive is put in place, so a tree that changed meanwhile fails the pack whole).
      nameCollisions = try collisions.collisions { visit in
        try walkEntries { item in
          if let path = archivePath(item) { visit(path) }
        }
      }
      return (writer.entryCount, writer.storedEntryCount, writer.dataByteCount)
    }
    var written = stat()
    let size = stat(output.path, &written) == 0 ? Int64(written.st_size) : 0
    var result = PackResult(
      output: output, format: format, entryCount: entries, directoryCount: counts.directories,
      fileCount: counts.files, symbolicLinkCount: counts.links, hardLinkCount: counts.hardLinks,
      storedEntryCount: stored, byteCount: bytes, archiveSize: size,
      nameCollisions: nameCollisions)
    result.reusedEntryCount = reusedCount
    return result
  }

  /// The earlier archive's entries to reuse, or `nil` to pack afresh (none asked for, or
  /// nothing at that path yet).
  package static func reuseIndex(options: PackOptions, format: ArchiveFormat, output: URL)
    throws -> ZipReuseIndex?
  {
    try reuseIndexOpener(options: options, format: format, output: output)?()
  }

  /// What opens the earlier archive's entries to reuse, once the options are checked, or
  /// `nil` to pack afresh (none asked for, or nothing at that path yet).
  private static func reuseIndexOpener(
    options: PackOptions, format: ArchiveFormat, output: URL
  ) throws -> (@Sendable () throws -> ZipReuseIndex)? {
    guard let previous = options.previousArchive else { return nil }
    guard format == .zip else {
      throw PackagingError(
        .updateNeedsZip,
        "cannot reuse the entries of '\(previous.path)' for a \(format) archive: only zip entries are reused (each is compressed on its own)"
      )
    }
    var info = stat()
    guard stat(previous.path, &info) == 0 else { return nil }
    let (path, checksBytes) = (previous.path, options.reuseChecksBytes)
    // Replaced (an update in place, a document saved over): what is copied from it will
    // not be read again.
    let isReplaced = previous.standardizedFileURL.path == output.standardizedFileURL.path
    return {
      do {
        return try ZipReuseIndex(path: path, checksEveryByte: checksBytes, isReplaced: isReplaced)
      } catch let error as PackagingError {
        throw PackagingError(
          error.code, "cannot reuse the entries of '\(path)': \(error.message)",
          cause: error.cause)
      }
    }
  }

  private static func writeFile(
    _ item: PackageWalker.Item, as path: String, metadata: ArchiveWriter.Metadata, root: Int32,
    sourcePath: String, topFolder: String, writer: ArchiveWriter
  ) throws {
    try writer.writeFile(
      path: path,
      source: ZipFileSource.file(
        folder: root, path: PackageWalker.packagePath(of: item.path, under: topFolder),
        folderPath: sourcePath, expected: .init(item.info)),
      size: Int64(item.info.st_size), metadata: metadata)
  }

  /// Writes a zip entry's `user.` attributes as macOS does: an AppleDouble
  /// `__MACOSX/DIR/._NAME` entry right after the entry, under their macOS names, its
  /// size given to `counting` first (no walk counts it).
  private static func writeAppleDouble(
    of path: String, metadata: ArchiveWriter.Metadata, displayPath: String,
    writer: ArchiveWriter, counting: (Int) -> Void
  ) throws {
    var attributes: [(name: String, value: [UInt8])] = []
    for attribute in metadata.extendedAttributes {
      guard let name = ExtendedAttribute.macOSName(fromLinux: attribute.name) else { continue }
      guard name.utf8.count <= AppleDouble.maximumNameLength else {
        throw PackagingError(
          .extendedAttributeLimit,
          "extended attribute '\(attribute.name)' of '\(displayPath)' has a name too long for a zip's AppleDouble entry (at most \(AppleDouble.maximumNameLength) bytes); a tar keeps it"
        )
      }
      attributes.append((name, attribute.value))
    }
    guard !attributes.isEmpty else { return }
    let bytes = AppleDouble(attributes: attributes).bytes
    var entry = metadata
    entry.permissions = 0o644
    entry.extendedAttributes = []
    counting(bytes.count)
    try writer.writeFile(
      path: "__MACOSX/" + AppleDouble.name(for: path), source: .memory(Data(bytes)),
      size: Int64(bytes.count), metadata: entry)
  }

  /// The package's own name, and a check that the output is not inside it.
  private static func topFolderName(source: URL, output: URL) throws -> String {
    guard let resolvedSource = realPath(source.path) else {
      throw PackagingError.system("cannot resolve '\(source.path)'", errno: errno)
    }
    let outputFolder = output.deletingLastPathComponent().path
    guard let resolvedFolder = realPath(outputFolder) else {
      throw PackagingError.system("cannot write into '\(outputFolder)'", errno: errno)
    }
    if resolvedFolder == resolvedSource || resolvedFolder.hasPrefix(resolvedSource + "/")
      || resolvedSource == "/"
    {
      throw PackagingError(
        .outputInsideSource,
        "cannot write '\(output.path)' inside the folder being packed ('\(source.path)')")
    }
    let name = URL(filePath: resolvedSource).lastPathComponent
    return name.isEmpty ? "package" : name
  }

  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
