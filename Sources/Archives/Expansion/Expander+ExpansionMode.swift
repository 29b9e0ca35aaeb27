public import FoundationEssentials
public import ProgressReporting

extension Expander {
  /// Expands an archive, holding an exclusive ``PackageLock`` on the destination.
  ///
  /// - Parameters:
  ///   - archive: The archive file.
  ///   - destination: The folder to create (or replace, or update); its parent must exist.
  ///   - policy: Safety limits and options.
  ///   - mode: What to do when the destination exists.
  ///   - lockOptions: How long to wait for another process's lock on the destination,
  ///     and whom to tell when it waits.
  ///   - progress: Where to report files and bytes.
  /// - Returns: What was expanded.
  /// - Throws: ``PackagingError`` naming the entry and the rule for a refused or damaged
  ///   archive; `CancellationError` when cancelled.
  @available(*, deprecated, renamed: "expand(_:into:policy:replacePolicy:lockOptions:progress:)")
  public static func expand(
    _ archive: URL, into destination: URL, policy: ExpansionPolicy = .default,
    mode: ExpansionMode, lockOptions: LockOptions = .default,
    progress: consuming Subprogress = .untracked()
  ) async throws -> ExpansionResult {
    try await expand(
      .file(archive), into: destination, policy: policy, replacePolicy: mode.replacePolicy,
      lockOptions: lockOptions, progress: progress)
  }

  /// Expands an archive from a file or standard input, holding an exclusive
  /// ``PackageLock`` on the destination.
  ///
  /// - Parameters:
  ///   - input: The archive file, or standard input.
  ///   - destination: The folder to create (or replace, or update); its parent must exist.
  ///   - policy: Safety limits and options.
  ///   - mode: What to do when the destination exists.
  ///   - lockOptions: How long to wait for another process's lock on the destination,
  ///     and whom to tell when it waits.
  ///   - progress: Where to report files and bytes.
  /// - Returns: What was expanded.
  /// - Throws: ``PackagingError`` naming the entry and the rule for a refused or damaged
  ///   archive; `CancellationError` when cancelled.
  @available(*, deprecated, renamed: "expand(_:into:policy:replacePolicy:lockOptions:progress:)")
  public static func expand(
    _ input: ArchiveInput, into destination: URL, policy: ExpansionPolicy = .default,
    mode: ExpansionMode, lockOptions: LockOptions = .default,
    progress: consuming Subprogress = .untracked()
  ) async throws -> ExpansionResult {
    try await expand(
      input, into: destination, policy: policy, replacePolicy: mode.replacePolicy,
      lockOptions: lockOptions, progress: progress)
  }
}
