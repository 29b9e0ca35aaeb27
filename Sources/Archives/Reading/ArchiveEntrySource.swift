/// An archive read entry by entry, whatever its format: what the expander and the lister
/// walk.
///
/// Zip archives are read by ``ZipEntrySource`` (Folio's own reader, through the
/// central directory), everything else by ``LibArchiveSource``. Both count the
/// compressed bytes they take from the input, which the expansion's ratio
/// budget is measured against.
protocol ArchiveEntrySource: AnyObject {
  /// The format and compression as `folio list` and messages show them.
  var formatDescription: String { get }
  /// The input's size in bytes, when known (not for a pipe).
  var inputSize: Int64? { get }
  /// Input bytes read so far, a stretch read twice counting twice.
  var bytesConsumed: Int64 { get }
  /// Distinct input bytes read so far (the furthest offset reached), which reading a
  /// stretch again does not raise.
  var distinctBytesConsumed: Int64 { get }

  /// Moves to the next entry.
  ///
  /// - Returns: The entry, or `nil` at the end of the archive.
  /// - Throws: ``PackagingError`` for a damaged header.
  func nextEntry() throws -> SourceEntry?

  /// Reads the current entry's next block of data.
  ///
  /// - Parameter name: The entry, for messages.
  /// - Returns: The bytes (valid until the next call) and their offset in the entry, or
  ///   `nil` at the end of its data.
  /// - Throws: ``PackagingError`` naming the entry.
  func readBlock(of name: EntryName) throws -> (bytes: UnsafeRawBufferPointer, offset: Int64)?

  /// Checks that the current entry's data is all there, without handing it over.
  ///
  /// `folio list` reads headers only; without this a tar cut in the middle of an
  /// entry's data would list as whole.
  ///
  /// - Parameter entry: The entry ``nextEntry()`` returned last.
  /// - Throws: ``PackagingError`` (`corrupt-archive`) naming the entry when its data
  ///   runs past the end of the input.
  func verifyData(of entry: SourceEntry) throws

  /// Reads what follows the last entry to its end, so every trailer and checksum is
  /// checked.
  ///
  /// - Throws: ``PackagingError`` (`corrupt-archive`) when the rest is damaged.
  func finish() throws

  /// What the archive does that was read as peers read it, worth telling the user.
  var warnings: [ArchiveWarning] { get }
}

extension ArchiveEntrySource {
  var warnings: [ArchiveWarning] { [] }
}

extension ArchiveEntrySource {
  /// Sources whose formats locate every entry's data before handing it over (zip's
  /// central directory) have nothing more to check.
  func verifyData(of entry: SourceEntry) throws {}
}

/// One entry as a source hands it over.
struct SourceEntry {
  /// The entry as its header describes it (a symbolic link's target filled in).
  var info: ArchiveEntryInfo
  /// Whether it has holes (a sparse tar entry), which need not be written.
  var isSparse = false
  /// Whether its data or metadata is encrypted.
  var isEncrypted = false
  /// The compressed bytes the entry holds, when its format says (zip), which bounds how
  /// far its data may expand.
  var compressedSize: Int64?
}
