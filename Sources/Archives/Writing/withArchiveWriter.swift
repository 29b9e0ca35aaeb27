import FolioSystem
public import FoundationEssentials
public import ProgressReporting

/// Writes an archive atomically: entries added in `body` go to a temporary
/// file beside `url`, which replaces `url` only when `body` returns and the
/// archive is complete and flushed to disk.
///
/// If `body` throws (or the work is cancelled, up to the moment the finished
/// archive is moved into place), or finishing the archive fails, the temporary
/// is removed and whatever was at `url` before is left untouched.
///
/// ```swift
/// try withArchiveWriter(at: output, format: .zip) { writer in
///   try writer.addDirectory("Notebook.examplenotebook")
///   try writer.addFile("Notebook.examplenotebook/metadata.json", data: json)
/// }
/// ```
///
/// - Parameters:
///   - url: Where the archive goes; its folder must exist.
///   - format: The archive format.
///   - options: Compression and reproducibility settings.
///   - progress: A reporter the writer reports entries, files and bytes to,
///     and checks for cancellation between chunks.
///   - body: Adds the entries; the writer must not be used after it returns.
/// - Returns: What `body` returns.
/// - Throws: ``PackagingError`` for an invalid level or a write failure,
///   `CancellationError` when cancelled, or whatever `body` throws.
public func withArchiveWriter<T>(
  at url: URL, format: ArchiveFormat, options: ArchiveWriterOptions = .init(),
  progress: ProgressManager? = nil, _ body: (ArchiveWriter) throws -> T
) throws -> T {
  try withArchiveWriter(
    at: url, format: format, options: options, replacing: true, progress: progress, body)
}

/// ``withArchiveWriter(at:format:options:progress:_:)``, with `replacing` saying whether
/// the finished archive may replace what is at `url` (see
/// `ReplacePolicy.replacesExisting`); without it, an output that appeared meanwhile
/// fails the write (`output-exists`) and is left as it is.
package func withArchiveWriter<T>(
  at url: URL, format: ArchiveFormat, options: ArchiveWriterOptions = .init(),
  replacing: Bool, progress: ProgressManager? = nil, _ body: (ArchiveWriter) throws -> T
) throws -> T {
  if let level = options.compressionLevel {
    guard let levels = format.compressionLevels, levels.contains(level) else {
      let allowed = format.compressionLevels.map { "\($0.lowerBound)–\($0.upperBound)" }
      throw PackagingError(
        .invalidLevel,
        "compression level \(level) is not valid for \(format)"
          + (allowed.map { ": expected \($0)" } ?? ": the format has no levels"))
    }
  }
  let file: AtomicFile
  do {
    file = try AtomicFile(target: url.path)
  } catch {
    throw PackagingError.archiveWrite(error)
  }
  if format == .zip {
    let output = ZipArchiveOutput(
      descriptor: file.descriptor, archiveName: url.path,
      spillFolder: url.deletingLastPathComponent().path,
      copiesInBackground: options.resolvedJobs > 1)
    let zip = ZipEntryWriter(
      output: output, level: options.compressionLevel ?? format.defaultCompressionLevel ?? 6,
      compression: options.compression, registry: options.typeRegistry,
      jobs: options.resolvedJobs, progress: progress)
    let writer = ArchiveWriter(
      format: format, backend: .zip(zip), options: options, progress: progress)
    do {
      defer { writer.close() }
      let value = try body(writer)
      if let progress { try progress.checkCancellation() }
      try zip.finish()
      // Finishing can take long (the last entries' compression): a cancellation that
      // arrived meanwhile still wins over the commit.
      if let progress { try progress.checkCancellation() }
      try commit(file, replacing: replacing)
      writer.releaseEarlierArchive()
      return value
    } catch {
      zip.abandon()
      file.discard()
      throw error
    }
  }
  let handle: ArchiveWriteHandle
  do {
    handle = try ArchiveWriteHandle(
      format: format, level: options.compressionLevel, reproducible: options.reproducible,
      jobs: options.resolvedJobs, descriptor: file.descriptor)
  } catch {
    file.discard()
    throw error
  }
  var tar: TarEntryWriter?
  do {
    try handle.open(name: url.path)
    let entries = try TarEntryWriter(handle: handle, options: options, progress: progress)
    tar = entries
    let writer = ArchiveWriter(
      format: format, backend: .tar(entries), options: options, progress: progress)
    defer { writer.close() }
    let value = try body(writer)
    if let progress { try progress.checkCancellation() }
    try entries.finish()
    // Closing flushes the compressor, which can take long (xz's threads hold whole
    // blocks): a cancellation that arrived meanwhile still wins over the commit.
    try handle.close(name: url.path)
    if let progress { try progress.checkCancellation() }
    try commit(file, replacing: replacing)
    return value
  } catch {
    tar?.abandon()
    handle.detach()
    file.discard()
    throw error
  }
}

/// Moves a finished archive into place.
private func commit(_ file: AtomicFile, replacing: Bool) throws {
  do {
    try file.commit(replacing: replacing)
  } catch {
    throw PackagingError.archiveWrite(error)
  }
}
