public import FolioSystem
public import FoundationEssentials
import Glibc
public import ProgressReporting

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
///   archive, into: destination, policy: .default, replacePolicy: .refuse,
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
  ///   - replacePolicy: What to do when the destination exists: refuse it (the default),
  ///     replace it, or update it (keeping the files that did not change).
  ///   - lockOptions: How long to wait for another process's lock on the destination,
  ///     and whom to tell when it waits.
  ///   - progress: Where to report files and bytes; byte progress follows the
  ///     compressed bytes read for compressed streams, and the bytes written for zip.
  /// - Returns: What was expanded.
  /// - Throws: ``PackagingError`` naming the entry and the rule for a refused or damaged
  ///   archive; `CancellationError` when cancelled.
  public static func expand(
    _ archive: URL, into destination: URL, policy: ExpansionPolicy = .default,
    replacePolicy: ReplacePolicy = .refuse, lockOptions: LockOptions = .default,
    progress: consuming Subprogress = .untracked()
  ) async throws -> ExpansionResult {
    try await expand(
      .file(archive), into: destination, policy: policy, replacePolicy: replacePolicy,
      lockOptions: lockOptions, progress: progress)
  }

  /// Expands an archive from a file or standard input, holding an exclusive
  /// ``PackageLock`` on the destination.
  ///
  /// The work runs off the cooperative thread pool; cancelling the task stops
  /// it between chunks and leaves the destination untouched.
  ///
  /// - Parameters:
  ///   - input: The archive file, or standard input (a zip on a pipe is copied to an
  ///     unnamed temporary file beside the destination first).
  ///   - destination: The folder to create (or replace, or update); its parent must exist.
  ///   - policy: Safety limits and options.
  ///   - replacePolicy: What to do when the destination exists: refuse it (the default),
  ///     replace it, or update it (keeping the files that did not change).
  ///   - lockOptions: How long to wait for another process's lock on the destination,
  ///     and whom to tell when it waits.
  ///   - progress: Where to report files and bytes.
  /// - Returns: What was expanded.
  /// - Throws: ``PackagingError`` naming the entry and the rule for a refused or damaged
  ///   archive; `CancellationError` when cancelled.
  public static func expand(
    _ input: ArchiveInput, into destination: URL, policy: ExpansionPolicy = .default,
    replacePolicy: ReplacePolicy = .refuse, lockOptions: LockOptions = .default,
    progress: consuming Subprogress = .untracked()
  ) async throws -> ExpansionResult {
    let reporter = progress.start(totalCount: 1)
    defer { reporter.end() }
    try reporter.checkCancellation()
    let parent = destination.standardizedFileURL.deletingLastPathComponent().path
    var parentInfo = stat()
    guard stat(parent, &parentInfo) == 0, parentInfo.st_mode & S_IFMT == S_IFDIR else {
      throw PackagingError(.destinationWriteFailed, "the folder '\(parent)' does not exist")
    }
    let lock = try await PackageLock.acquire(
      .exclusive, on: destination, options: lockOptions)
    defer { lock.release() }
    return try await runBlocking(cancelling: reporter) {
      try expandSynchronously(
        input, into: destination, policy: policy, replacePolicy: replacePolicy,
        reporter: reporter)
    }
  }

  /// Expands an archive on the calling thread (the synchronous core, for tests and the
  /// fuzz targets of this package).
  ///
  /// It takes no lock: callers that may race with other processes hold a
  /// ``PackageLock`` on the destination around it.
  ///
  /// - Parameters:
  ///   - archive: The archive file.
  ///   - destination: The folder to create (or replace, or update); its parent must exist.
  ///   - policy: Safety limits and options.
  ///   - replacePolicy: What to do when the destination exists: refuse it (the default),
  ///     replace it, or update it (keeping the files that did not change).
  ///   - reporter: Where to report files and bytes, and where cancellation is checked.
  /// - Returns: What was expanded.
  /// - Throws: ``PackagingError`` naming the entry and the rule; `CancellationError`.
  package static func expandSynchronously(
    _ archive: URL, into destination: URL, policy: ExpansionPolicy = .default,
    replacePolicy: ReplacePolicy = .refuse, reporter: ProgressManager? = nil
  ) throws -> ExpansionResult {
    try expandSynchronously(
      .file(archive), into: destination, policy: policy, replacePolicy: replacePolicy,
      reporter: reporter)
  }

  /// Expands an archive from a file or standard input on the calling thread.
  ///
  /// It takes no lock: callers that may race with other processes hold a
  /// ``PackageLock`` on the destination around it.
  ///
  /// - Parameters:
  ///   - input: The archive file, or standard input.
  ///   - destination: The folder to create (or replace, or update); its parent must exist.
  ///   - policy: Safety limits and options.
  ///   - replacePolicy: What to do when the destination exists: refuse it (the default),
  ///     replace it, or update it (keeping the files that did not change).
  ///   - reporter: Where to report files and bytes, and where cancellation is checked.
  /// - Returns: What was expanded.
  /// - Throws: ``PackagingError`` naming the entry and the rule; `CancellationError`.
  package static func expandSynchronously(
    _ input: ArchiveInput, into destination: URL, policy: ExpansionPolicy = .default,
    replacePolicy: ReplacePolicy = .refuse, reporter: ProgressManager? = nil
  ) throws -> ExpansionResult {
    let settled = try ExpansionDestination.settle(
      destination, replacePolicy: replacePolicy, input: input)
    let destination = settled.folder
    let exists = settled.exists
    let parent = destination.deletingLastPathComponent().path

    // The whole archive is opened, and a zip's every entry judged, before anything is made.
    let source = try ArchiveOpener.open(input, policy: policy, spoolFolder: parent)
    let zipSummary = try ExpansionRun<StagingFolder>.zipSummary(of: source, policy: policy)
    let staging = try StagingFolder(for: destination, durable: policy.flushesBeforeCommit)
    let updating = replacePolicy == .update && exists
    staging.recordsFiles = updating
    do {
      var run = ExpansionRun(
        source: source, staging: staging, policy: policy, reporter: reporter,
        zipSummary: zipSummary)
      let top = try run.expandAll()
      var result = run.result(destination: destination, format: source.formatDescription)
      result.unwrappedTopFolder = top
      result.destinationLink = settled.link
      if updating {
        // Before `prepare`, which restores folder times after these links change them.
        result.unchangedFileCount = try staging.adoptUnchangedFiles(
          source: staging.movedRoot(top: top), top: top)
      }
      let moved = try staging.prepare(top: top)
      if updating {
        result.removedPaths = StagingFolder.pathsMissing(from: moved, comparedWith: destination)
      }
      try reporter?.checkCancellation()
      try staging.commit(
        moved, replacePolicy.replacesExisting ? .replace : .fresh,
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
