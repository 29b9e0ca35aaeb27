import Foundation

/// Expands archives into folders, safely and atomically.
///
/// Any archive libarchive reads can be expanded (zip, tar plain or
/// compressed with gzip, bzip2, xz, zstd or lz4, cpio, 7-Zip, …); the
/// format is detected from the content. Every entry goes through the rules
/// of an ``ExpansionPolicy`` before anything is written: unsafe names,
/// links that leave the destination, devices, duplicates, collisions and the
/// size, count and ratio limits. A zip's central directory is checked first
/// (totals, overlapping entries, local headers that disagree).
///
/// The tree is written into a temporary folder beside the destination
/// (`.NAME.folio-expand-PID-XXXXXX`) and moved into place only when every entry
/// was written and every checksum matched; on any failure or cancellation
/// the temporary folder is removed and the destination is exactly as it
/// was. Declared sizes are never trusted: Folio writes each file itself and
/// stops at the smaller of the declared size and the remaining budget.
///
/// An archive whose entries all sit in one top folder (as `folio pack` and
/// `ditto --keepParent` write them) expands that folder *as* the
/// destination: `Notebook.zip` holding `Notebook.examplenotebook/…`
/// expanded into `Restored.examplenotebook` gives the package itself. Set
/// ``ExpansionPolicy/keepsTopFolder`` to keep it inside instead.
///
/// ```swift
/// let result = try await Expander.expand(
///   archive, into: destination, policy: .default, mode: .fresh,
///   progress: reporter.subprogress(assigningCount: 1))
/// ```
public enum Expander {
  /// Expands an archive, holding an exclusive ``PackageLock`` on the destination.
  ///
  /// The work runs off the cooperative thread pool; cancelling the task stops
  /// it between chunks and leaves the destination untouched.
  ///
  /// - Parameters:
  ///   - archive: The archive file.
  ///   - destination: The folder to create (or replace, or update); its parent must exist.
  ///   - policy: Safety limits and options.
  ///   - mode: What to do when the destination exists.
  ///   - lockTimeout: How long to wait for another process's lock on the destination.
  ///   - onLockWait: Called once if the lock is held elsewhere, with a line for the user.
  ///   - progress: Where to report files and bytes; byte progress follows the
  ///     compressed bytes read for compressed streams, and the bytes written for zip.
  /// - Returns: What was expanded.
  /// - Throws: ``PackagingError`` naming the entry and the rule for a refused or damaged
  ///   archive; `CancellationError` when cancelled.
  public static func expand(
    _ archive: URL, into destination: URL, policy: ExpansionPolicy = .default,
    mode: ExpansionMode = .fresh, lockTimeout: Duration = PackageLock.defaultTimeout,
    onLockWait: (@Sendable (String) -> Void)? = nil, progress: consuming Subprogress
  ) async throws -> ExpansionResult {
    let reporter = progress.start(totalCount: 1)
    try reporter.checkCancellation()
    let parent = destination.standardizedFileURL.deletingLastPathComponent().path
    var parentInfo = stat()
    guard stat(parent, &parentInfo) == 0, parentInfo.st_mode & S_IFMT == S_IFDIR else {
      throw PackagingError(.destinationWriteFailed, "the folder '\(parent)' does not exist")
    }
    let lock = try await PackageLock.acquire(
      .exclusive, on: destination, timeout: lockTimeout, onWait: onLockWait)
    defer { lock.release() }
    return try await runBlocking(cancelling: reporter) {
      try expandSynchronously(
        archive, into: destination, policy: policy, mode: mode, reporter: reporter)
    }
  }

  /// Expands an archive on the calling thread (the synchronous core).
  ///
  /// It takes no lock: callers that may race with other processes hold a
  /// ``PackageLock`` on the destination around it.
  ///
  /// - Parameters:
  ///   - archive: The archive file.
  ///   - destination: The folder to create (or replace, or update); its parent must exist.
  ///   - policy: Safety limits and options.
  ///   - mode: What to do when the destination exists.
  ///   - reporter: Where to report files and bytes, and where cancellation is checked.
  /// - Returns: What was expanded.
  /// - Throws: ``PackagingError`` naming the entry and the rule; `CancellationError`.
  public static func expandSynchronously(
    _ archive: URL, into destination: URL, policy: ExpansionPolicy = .default,
    mode: ExpansionMode = .fresh, reporter: ProgressReporter? = nil
  ) throws -> ExpansionResult {
    let destination = destination.standardizedFileURL
    var info = stat()
    let exists = lstat(destination.path, &info) == 0
    if exists && mode == .fresh {
      throw PackagingError(
        .destinationExists,
        "'\(destination.path)' already exists (replace it with --force, or update it with --update)"
      )
    }
    if exists {
      // Replacing or updating removes the old tree: never the archive being read.
      let archivePath = archive.resolvingSymlinksInPath().path
      let destinationPath = destination.resolvingSymlinksInPath().path
      if archivePath.hasPrefix(destinationPath + "/") {
        throw PackagingError(
          .archiveInsideDestination,
          "'\(archive.path)' is inside '\(destination.path)', which expanding would replace")
      }
    }
    var parentInfo = stat()
    let parent = destination.deletingLastPathComponent().path
    guard stat(parent, &parentInfo) == 0, parentInfo.st_mode & S_IFMT == S_IFDIR else {
      throw PackagingError(.destinationWriteFailed, "the folder '\(parent)' does not exist")
    }

    // A zip's central directory is checked before libarchive reads a byte of it.
    var zipSummary: ZipPrecheck.Summary?
    if let file = try? RandomAccessFile(path: archive.path),
      try ZipCentralDirectory.looksLikeZip(file)
    {
      zipSummary = try ZipPrecheck.check(file, name: archive.path, policy: policy)
    }
    let source = try ArchiveSource(path: archive.path)
    let staging = try StagingFolder(for: destination)
    staging.recordsFiles = mode == .update && exists
    do {
      var run = ExpansionRun(
        source: source, staging: staging, policy: policy, reporter: reporter,
        archiveName: archive.path, zipSummary: zipSummary)
      try run.expandEntries()
      try source.finish()
      let top = policy.keepsTopFolder ? nil : run.ledger.singleTopFolder
      try run.ledger.verifySymbolicLinks(within: top)
      var result = run.result(destination: destination, format: source.formatDescription)
      result.unwrappedTopFolder = top
      if mode == .update && exists {
        // Before `prepare`, which restores folder times after these links change them.
        result.unchangedFileCount = try staging.adoptUnchangedFiles(
          source: staging.movedRoot(top: top), top: top)
      }
      let moved = try staging.prepare(top: top, flush: policy.flushesBeforeCommit)
      try reporter?.checkCancellation()
      try staging.commit(
        moved, mode == .fresh ? .fresh : .replace,
        topPermissions: top.flatMap { run.directoryPermissions[$0] } ?? (top == nil ? nil : 0o755))
      result.replacedExisting = exists
      reporter?.complete(count: 1)
      return result
    } catch {
      staging.discard()
      throw error
    }
  }
}

/// One expansion's walk over the entries: the rules, the budget and the writes.
private struct ExpansionRun {
  let source: ArchiveSource
  let staging: StagingFolder
  let policy: ExpansionPolicy
  let reporter: ProgressReporter?
  let archiveName: String
  var ledger: ExpansionLedger
  /// Folder modes by top-level name, for the folder that becomes the destination.
  var directoryPermissions: [String: UInt32] = [:]
  private var written: Int64 = 0
  private var reportedBytes: Int64 = 0
  private var byteProgressFollowsOutput = false
  private var counts = (files: 0, directories: 0, symbolicLinks: 0, hardLinks: 0)
  private var skipped: [EntryName] = []
  private var zipSummary: ZipPrecheck.Summary?

  init(
    source: ArchiveSource, staging: StagingFolder, policy: ExpansionPolicy,
    reporter: ProgressReporter?, archiveName: String, zipSummary: ZipPrecheck.Summary?
  ) {
    self.zipSummary = zipSummary
    self.source = source
    self.staging = staging
    self.policy = policy
    self.reporter = reporter
    self.archiveName = archiveName
    ledger = ExpansionLedger(policy: policy)
  }

  mutating func expandEntries() throws {
    var first = true
    while try source.next() {
      try reporter?.checkCancellation()
      if first {
        first = false
        try announceTotals()
      }
      try expandCurrentEntry()
    }
    if ledger.entryCount == 0 {
      throw PackagingError(.emptyArchive, "'\(archiveName)' holds no entries")
    }
  }

  /// Runs the zip pre-check (before the first write) and announces totals.
  private mutating func announceTotals() throws {
    if source.isSeekableZip {
      // A zip with a prefix (a self-extractor stub) is recognised only by libarchive.
      let summary = try zipSummary ?? ZipPrecheck.check(archiveName, policy: policy)
      zipSummary = summary
      byteProgressFollowsOutput = true
      reporter?.addTotals(files: summary.fileCount, bytes: summary.declaredBytes)
    } else {
      reporter?.addTotals(bytes: source.fileSize)
    }
  }

  private mutating func expandCurrentEntry() throws {
    let entry = source.entry
    let info = entry.info
    let name = info.name
    if entry.isEncrypted {
      throw PackagingError(.encryptedEntry, "entry \(name.display) is encrypted")
    }
    // A symbolic link without a target is refused by the ledger as an empty target.
    let linkTarget =
      info.kind == .symbolicLink ? (info.linkTarget ?? EntryName(bytes: [])) : info.linkTarget
    let admission = try ledger.admit(name, kind: info.kind, linkTarget: linkTarget)
    let permissions = ExpansionPolicy.permissions(fromEntryMode: info.permissions)
    let time = info.modificationTime.map {
      StagingFolder.Time(seconds: $0, nanoseconds: info.modificationNanoseconds)
    }
    switch admission {
    case .root:
      staging.setRootAttributes(permissions: permissions, time: time)
      try discardData(of: name)
    case .skipAppleDouble:
      skipped.append(name)
      try discardData(of: name)
    case .expand(let path):
      switch info.kind {
      case .directory:
        try staging.makeDirectory(path, permissions: permissions, time: time)
        if path.components.count == 1 { directoryPermissions[path.components[0]] = permissions }
        counts.directories += 1
        try discardData(of: name)
      case .file:
        reporter?.startFile(path.string, size: info.size)
        try writeFile(
          path, name: name, declared: info.size, sparse: entry.isSparse,
          permissions: permissions, time: time)
        counts.files += 1
        reporter?.completeFile(path.string)
      case .hardLink:
        guard let target = info.linkTarget else { break }
        let targetPath = try ledger.hardLinkTarget(of: name, target: target)
        reporter?.startFile(path.string, size: 0)
        try staging.link(path, to: targetPath)
        counts.hardLinks += 1
        reporter?.completeFile(path.string)
        try discardData(of: name)
      case .symbolicLink:
        staging.addSymbolicLink(path, target: info.linkTarget?.bytes ?? [], time: time)
        counts.symbolicLinks += 1
        reporter?.startFile(path.string, size: 0)
        reporter?.completeFile(path.string)
        try discardData(of: name)
      case .characterDevice, .blockDevice, .fifo, .socket:
        break  // the ledger refuses these
      }
    }
    reportInputProgress()
  }

  /// Writes a regular file's data, never more than declared or than the budget allows.
  private mutating func writeFile(
    _ path: RelativePath, name: EntryName, declared: Int64?, sparse: Bool, permissions: UInt32,
    time: StagingFolder.Time?
  ) throws {
    let remaining = policy.maxTotalBytes - written
    if let declared, declared > remaining {
      throw budgetExceeded(name)
    }
    let limit = declared ?? remaining
    let file = try staging.createFile(path)
    var logicalEnd: Int64 = 0
    while let block = try source.readBlock(of: name) {
      try reporter?.checkCancellation()
      let end = block.offset + Int64(block.bytes.count)
      guard block.offset >= 0, end <= limit else {
        if let declared, end > declared {
          throw PackagingError(
            .corruptArchive,
            "entry \(name.display) holds more data than the \(declared) bytes its header declares")
        }
        throw budgetExceeded(name)
      }
      if block.bytes.count > 0 { try file.write(block.bytes, at: block.offset) }
      let grown = max(0, end - logicalEnd)
      logicalEnd = max(logicalEnd, end)
      written += grown
      if byteProgressFollowsOutput {
        reporter?.complete(bytes: grown)
      } else {
        reportInputProgress()
      }
      if source.isCompressed
        && policy.exceedsRatio(expanded: written, compressed: source.bytesConsumed)
      {
        throw PackagingError(
          .compressionRatio,
          "entry \(name.display): \(written) bytes expanded from \(source.bytesConsumed) compressed, past the ratio limit of \(Int(policy.maxCompressionRatio))"
        )
      }
    }
    if let declared, logicalEnd < declared {
      guard sparse else {
        throw PackagingError(
          .corruptArchive,
          "entry \(name.display) is truncated: \(logicalEnd) of \(declared) declared bytes")
      }
      try file.extend(to: declared)  // a trailing hole, within the declared (budgeted) size
      written += declared - logicalEnd
    }
    try file.finish(permissions: permissions, time: time)
  }

  /// Reads and drops an entry's data (folders, links, skipped entries), so
  /// checksums are still verified; stops at the budget.
  private mutating func discardData(of name: EntryName) throws {
    var seen: Int64 = 0
    while let block = try source.readBlock(of: name) {
      seen += Int64(block.bytes.count)
      if seen > policy.maxTotalBytes - written { throw budgetExceeded(name) }
    }
  }

  private mutating func reportInputProgress() {
    guard !byteProgressFollowsOutput, let reporter else { return }
    let consumed = min(source.bytesConsumed, source.fileSize)
    if consumed > reportedBytes {
      reporter.complete(bytes: consumed - reportedBytes)
      reportedBytes = consumed
    }
  }

  private func budgetExceeded(_ name: EntryName) -> PackagingError {
    PackagingError(
      .expansionTooLarge,
      "entry \(name.display) would take the expansion past the limit of \(policy.maxTotalBytes) bytes"
    )
  }

  func result(destination: URL, format: String) -> ExpansionResult {
    ExpansionResult(
      destination: destination, format: format, fileCount: counts.files,
      directoryCount: counts.directories, symbolicLinkCount: counts.symbolicLinks,
      hardLinkCount: counts.hardLinks, byteCount: written, skippedEntries: skipped)
  }
}
