import FolioSystem

/// A reader of a text property-list form (JSON, OpenStep) over a ``PropertyListTextCursor``.
///
/// The readers differ in grammar, but they move through the text, place values and word a
/// malformed document the same way; this gives both readers those steps once.
protocol PropertyListTextReading {
  /// Where the reader is in the text.
  var cursor: PropertyListTextCursor { get set }
  /// The code of a document this reader finds malformed.
  static var malformedCode: PropertyListErrorDomain.Code { get }
  /// How a message about a malformed document starts, such as `malformed JSON`.
  static var malformedPrefix: String { get }
}

extension PropertyListTextReading {
  /// The text, UTF-8.
  var bytes: UnsafeBufferPointer<UInt8> { cursor.bytes }

  /// The offset of the next byte to read.
  var index: Int {
    get { cursor.index }
    set { cursor.index = newValue }
  }

  /// The line and column of the next byte.
  mutating func here() -> SourceLocation { cursor.here() }

  /// The line and column of the byte at `offset`.
  mutating func location(at offset: Int) -> SourceLocation { cursor.location(at: offset) }

  /// A malformed-document error at `offset` (by default the next byte).
  mutating func error(_ message: String, at offset: Int? = nil) -> PropertyListError {
    PropertyListError(
      Self.malformedCode, "\(Self.malformedPrefix): \(message)",
      location: location(at: offset ?? index))
  }
}
