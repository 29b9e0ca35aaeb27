/// Where an expansion puts the entries it admits: a staging folder on disk
/// (``StagingFolder``), or a tree in memory (a file wrapper read from an archive).
///
/// ``ExpansionRun`` applies every rule and budget before it calls a target, so both
/// receive only what `expand` would write.
protocol ExpansionTarget: AnyObject, SendableMetatype {
  /// A regular file being written.
  associatedtype File: ExpansionTargetFile

  /// Creates a folder (and its parents).
  func makeDirectory(_ path: RelativePath, permissions: UInt32, time: StagingFolder.Time?) throws
  /// Records the root folder's own mode and time (an archive's `./` entry).
  func setRootAttributes(permissions: UInt32, time: StagingFolder.Time?)
  /// Creates an empty regular file.
  func createFile(_ path: RelativePath) throws -> File
  /// Makes `path` a hard link to a file created earlier.
  func link(_ path: RelativePath, to target: RelativePath) throws
  /// Records a symbolic link, its target already checked to stay inside.
  func addSymbolicLink(_ path: RelativePath, target: [UInt8], time: StagingFolder.Time?)
  /// Sees an admitted entry's header before it is made (what `verify` compares: the stored
  /// mode, not the one `expand` applies).
  func noteEntry(_ info: ArchiveEntryInfo, at path: RelativePath)
}

extension ExpansionTarget {
  func noteEntry(_ info: ArchiveEntryInfo, at path: RelativePath) {}
}

/// A regular file an ``ExpansionTarget`` is receiving.
protocol ExpansionTargetFile: AnyObject {
  /// Writes bytes at `offset` (past the end leaves a hole).
  func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws
  /// Extends the file to `length` with a hole.
  func extend(to length: Int64) throws
  /// Sets the final mode and time.
  func finish(permissions: UInt32, time: StagingFolder.Time?) throws
}

extension StagingFolder: ExpansionTarget {}
extension OutputFile: ExpansionTargetFile {}
