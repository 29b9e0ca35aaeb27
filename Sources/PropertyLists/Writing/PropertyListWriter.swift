public import FolioSystem
public import FoundationEssentials

/// Serialises property list values as XML, binary or JSON.
///
/// XML follows Apple's layout (tab indentation, the `DOCTYPE`, dictionary keys
/// in stored order); binary is `bplist00` with shared scalars stored once and
/// the narrowest offset and reference widths; JSON is the compact form
/// `plutil -convert json` writes. Values a format cannot hold are refused with
/// `unrepresentable`, never silently changed.
///
/// ```swift
/// let bytes = try PropertyListWriter.data(for: document.root, format: .binary)
/// try PropertyListWriter.write(document.root, to: url, format: .xml, replacePolicy: .replace)
/// ```
public enum PropertyListWriter {
  /// Serialises a value.
  ///
  /// - Parameters:
  ///   - value: The top-level value.
  ///   - format: The format to write.
  /// - Returns: The bytes.
  /// - Throws: ``PropertyListError`` with `unrepresentable` when the format cannot hold a value
  ///   (dates, data or non-finite reals in JSON; a JSON top level that is not a container;
  ///   control characters XML 1.0 cannot carry), `unsupported-format` for OpenStep.
  public static func data(for value: PropertyListValue, format: PropertyListFormat) throws -> Data {
    try data(for: value, format: format, maximumOutputSize: nil)
  }

  /// Serialises a value, refusing output past a size limit.
  ///
  /// A binary property list may share one object among many references, which every
  /// writer spells out: the limit is checked before writing (from the values' sizes, as
  /// the references expand them) and again on the bytes written, so what passes it is
  /// never built in full.
  ///
  /// - Parameters:
  ///   - value: The top-level value.
  ///   - format: The format to write.
  ///   - maximumOutputSize: The most bytes the output may take; `nil` for no limit.
  /// - Returns: The bytes.
  /// - Throws: ``PropertyListError`` with `output-too-large` past the limit, and what
  ///   ``data(for:format:)`` throws.
  public static func data(
    for value: PropertyListValue, format: PropertyListFormat, maximumOutputSize: Int?
  ) throws -> Data {
    // XML takes a tag pair a value, and a tab a level; the binary writer an object record
    // and references.
    let bytesPerValue =
      switch format {
      case .xml: 16
      case .binary: 16
      default: 2
      }
    if let maximumOutputSize,
      value.expandsPast(
        maximumOutputSize, bytesPerValue: bytesPerValue, bytesPerLevel: format == .xml ? 1 : 0)
    {
      throw tooLarge(value, format: format, limit: maximumOutputSize)
    }
    let bytes: Data
    let limit = maximumOutputSize ?? .max
    switch format {
    case .xml:
      do {
        bytes = try XMLPropertyListWriter.data(for: value, limit: limit)
      } catch is OutputLimitReached {
        throw tooLarge(value, format: format, limit: limit)
      }
    case .binary: bytes = try BinaryPropertyListWriter.data(for: value)
    case .json:
      do {
        bytes = try JSONPropertyListWriter.data(for: value, limit: limit)
      } catch is OutputLimitReached {
        throw tooLarge(value, format: format, limit: limit)
      }
    case .openStep:
      throw PropertyListError(
        .unsupportedFormat,
        "Folio reads OpenStep property lists but does not write them (nor does plutil); write XML, binary or JSON"
      )
    }
    if let maximumOutputSize, bytes.count > maximumOutputSize {
      throw tooLarge(value, format: format, limit: maximumOutputSize)
    }
    return bytes
  }

  private static func tooLarge(_ value: PropertyListValue, format: PropertyListFormat, limit: Int)
    -> PropertyListError
  {
    PropertyListError(
      .outputTooLarge,
      "the \(format.rawValue) output would be more than \(limit) bytes, the limit for this conversion (shared references in the input are written out in full)",
      location: value.location)
  }

  /// Serialises a value into a file atomically, refusing output past a size limit before
  /// anything is written.
  ///
  /// The bytes go to a temporary file beside `url`, which is flushed to disk and then renamed
  /// over `url`; on failure the temporary file is removed and `url` is untouched. An existing
  /// file at `url` is refused unless `replacePolicy` is ``ReplacePolicy/replace`` (it then
  /// keeps its permissions); a property list is written whole, so ``ReplacePolicy/update``
  /// is refused.
  ///
  /// - Parameters:
  ///   - value: The top-level value.
  ///   - url: The file to create (or replace).
  ///   - format: The format to write.
  ///   - maximumOutputSize: The most bytes the output may take; `nil` for no limit.
  ///   - replacePolicy: What to do when `url` exists: refuse it (the default) or replace it.
  /// - Throws: ``PropertyListError`` with `output-exists` or `update-unsupported` (checked
  ///   first), `output-too-large`, `unrepresentable` or `write-failed`.
  public static func write(
    _ value: PropertyListValue, to url: URL, format: PropertyListFormat,
    maximumOutputSize: Int? = nil, replacePolicy: ReplacePolicy = .refuse
  ) throws {
    try AtomicFileWriter.check(url, replacePolicy)
    try AtomicFileWriter.write(
      try data(for: value, format: format, maximumOutputSize: maximumOutputSize), to: url,
      replacePolicy: replacePolicy)
  }
}
