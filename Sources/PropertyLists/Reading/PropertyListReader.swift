import FolioSystem
public import FoundationEssentials

/// Reads property lists in any of Folio's formats, keeping the source location of every value.
///
/// The format is recognised from the bytes: `bplist00` is binary, `<` (after an
/// optional byte order mark and whitespace) is XML, `[`, or `{` followed by a quoted key
/// and a colon, is JSON, and other text (`{ key = value; }`, `( … )`, a comment, a
/// strings file) is the old OpenStep form. Every
/// failure is a ``PropertyListError`` whose `location` names the file and the
/// line and column (or, for binary input, the byte offset) of the problem.
///
/// ```swift
/// let document = try PropertyListReader.read(contentsOf: url)
/// let identifier = document.root["CFBundleIdentifier"]?.stringValue
/// ```
public enum PropertyListReader {
  /// Reads a property list from bytes.
  ///
  /// - Parameters:
  ///   - data: The bytes of the property list.
  ///   - file: The name used in locations and messages (`Info.plist`, or `-` for standard input).
  ///   - options: Limits on size and nesting.
  /// - Returns: The root value, the format and any warnings (such as duplicate keys).
  /// - Throws: ``PropertyListError`` naming what is wrong and where.
  public static func read(
    _ data: Data, file: String, options: PropertyListReadOptions = .init()
  ) throws -> PropertyListDocument {
    guard data.count <= options.maximumInputSize else {
      throw tooLarge(file, size: "is \(data.count) bytes", options: options)
    }
    guard !data.isEmpty else {
      throw PropertyListError(
        .emptyInput, "the file is empty", location: SourceLocation(file: file))
    }
    return try data.withUnsafeBytes { raw in
      if raw.starts(with: "bplist".utf8) {
        return try BinaryPropertyListReader.read(raw, file: file, options: options)
      }
      switch try TextEncodingSniffer.utf8Text(raw, file: file) {
      case .original(let offset):
        return try readText(
          UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[offset...]), file: file,
          options: options)
      case .transcoded(let bytes):
        return try bytes.withUnsafeBufferPointer {
          try readText($0, file: file, options: options)
        }
      }
    }
  }

  /// Reads a property list from a file.
  ///
  /// - Parameters:
  ///   - url: The file to read.
  ///   - displayName: The name used in locations; the path as given when `nil`.
  ///   - options: Limits on size and nesting; the size is checked before reading.
  /// - Returns: The root value, the format and any warnings.
  /// - Throws: ``PropertyListError`` with `read-failed` when the file cannot be read, or naming
  ///   what is wrong and where.
  public static func read(
    contentsOf url: URL, displayName: String? = nil, options: PropertyListReadOptions = .init()
  ) throws -> PropertyListDocument {
    let name = displayName ?? url.path
    let data: Data
    do {
      data = Data(try FileContents.read(atPath: url.path, limit: options.maximumInputSize))
    } catch .tooLarge(let size) {
      throw tooLarge(name, size: "is \(size) bytes", options: options)
    } catch .system(let cause) {
      throw PropertyListError(
        .readFailed, "cannot read \(name): \(cause)", location: SourceLocation(file: name),
        cause: cause)
    }
    return try read(data, file: name, options: options)
  }

  private static func tooLarge(
    _ name: String, size: String, options: PropertyListReadOptions
  ) -> PropertyListError {
    PropertyListError(
      .inputTooLarge,
      "the file \(size), more than the limit of \(options.maximumInputSize) bytes for a property list",
      location: SourceLocation(file: name))
  }

  /// Dispatches UTF-8 text to the XML or JSON reader by its first significant character.
  private static func readText(
    _ bytes: UnsafeBufferPointer<UInt8>, file: String, options: PropertyListReadOptions
  ) throws -> PropertyListDocument {
    guard let first = bytes.firstIndex(where: { !PropertyListScalarSyntax.isWhitespace($0) }) else {
      throw PropertyListError(
        .emptyInput, "the file holds only whitespace", location: SourceLocation(file: file))
    }
    switch bytes[first] {
    case UInt8(ascii: "<"):
      return try XMLPropertyListParser.parse(utf8: bytes, file: file, options: options)
    case UInt8(ascii: "{") where JSONPropertyListReader.looksLikeJSONObject(bytes, from: first),
      UInt8(ascii: "["):
      return try JSONPropertyListReader.read(bytes, file: file, options: options)
    case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "\""), UInt8(ascii: "'"),
      UInt8(ascii: "/"):
      return try OpenStepPropertyListReader.read(bytes, file: file, options: options)
    case let byte where OpenStepPropertyListReader.isUnquotedCharacter(byte):
      // An unquoted string: a strings-file form (`key = value;`) or a lone string.
      return try OpenStepPropertyListReader.read(bytes, file: file, options: options)
    default:
      var tracker = TextPositionTracker(bytes: bytes)
      let position = tracker.position(at: first)
      throw PropertyListError(
        .unsupportedFormat, "not an XML, binary, JSON or OpenStep property list",
        location: SourceLocation(file: file, line: position.line, column: position.column))
    }
  }
}
