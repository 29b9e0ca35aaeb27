import FolioSystem

/// The place a text property-list reader (JSON, OpenStep) is at, with what every such reader
/// checks the same way: where a byte is as a line and column, how deep containers nest, and
/// how many values the document holds.
struct PropertyListTextCursor {
  /// The text, UTF-8.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The name used in locations.
  let file: String
  /// The offset of the next byte to read.
  var index = 0
  private let maximumDepth: Int
  private let maximumValueCount: Int
  private var depth = 0
  private var valueCount = 0
  private var tracker: TextPositionTracker

  init(bytes: UnsafeBufferPointer<UInt8>, file: String, options: PropertyListReadOptions) {
    self.bytes = bytes
    self.file = file
    self.maximumDepth = options.maximumDepth
    self.maximumValueCount = options.maximumValueCount
    self.tracker = TextPositionTracker(bytes: bytes)
  }

  /// The location of the next byte.
  mutating func here() -> SourceLocation { location(at: index) }

  /// The location of a byte.
  mutating func location(at offset: Int) -> SourceLocation {
    let position = tracker.position(at: offset)
    return SourceLocation(file: file, line: position.line, column: position.column)
  }

  /// Counts one value against the document's limit.
  ///
  /// - Parameter location: Where the value starts, for the error.
  /// - Throws: ``PropertyListError`` `too-many-values` past the limit.
  mutating func countValue(at location: SourceLocation) throws {
    valueCount += 1
    if valueCount > maximumValueCount {
      throw PropertyListError(
        .tooManyValues,
        "the property list holds more than \(maximumValueCount) values, the limit for a property list",
        location: location)
    }
  }

  /// Goes one container deeper, checked before the container is read so no input can
  /// exhaust the stack.
  ///
  /// - Parameter location: Where the container starts, for the error.
  /// - Throws: ``PropertyListError`` `too-deep` past the limit.
  mutating func enter(_ location: SourceLocation) throws {
    depth += 1
    if depth > maximumDepth {
      throw PropertyListError(
        .tooDeep, "containers nest deeper than the limit of \(maximumDepth) levels",
        location: location)
    }
  }

  /// Leaves a container.
  mutating func leave() { depth -= 1 }

  /// Goes back to the start, to read the text again another way (an OpenStep strings file
  /// after a first reading as one value), with nothing counted.
  mutating func restart() {
    index = 0
    depth = 0
    valueCount = 0
  }
}
