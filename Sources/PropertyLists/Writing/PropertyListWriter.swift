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
/// try PropertyListWriter.write(document.root, to: url, format: .xml)
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
    switch format {
    case .xml: return try XMLPropertyListWriter.data(for: value)
    case .binary: return try BinaryPropertyListWriter.data(for: value)
    case .json: return try JSONPropertyListWriter.data(for: value)
    case .openStep:
      throw PropertyListError(
        .unsupportedFormat,
        "Folio reads OpenStep property lists but does not write them (nor does plutil); write XML, binary or JSON"
      )
    }
  }

  /// Serialises a value into a file atomically.
  ///
  /// The bytes go to a temporary file beside `url`, which is flushed to disk and then renamed
  /// over `url`; on failure the temporary file is removed and `url` is untouched.
  ///
  /// - Parameters:
  ///   - value: The top-level value.
  ///   - url: The file to create or replace.
  ///   - format: The format to write.
  /// - Throws: ``PropertyListError`` with `unrepresentable` or `write-failed`.
  public static func write(_ value: PropertyListValue, to url: URL, format: PropertyListFormat)
    throws
  {
    try AtomicFileWriter.write(try data(for: value, format: format), to: url)
  }
}
