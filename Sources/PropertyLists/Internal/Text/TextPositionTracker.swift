/// Turns byte offsets into 1-based lines and columns, in one forward pass.
///
/// Readers ask for positions in increasing order, so the tracker walks the
/// bytes between two requests once; a request behind the cursor restarts from
/// the top. Columns count Unicode scalars (UTF-8 lead bytes), so a tab or an
/// accented letter is one column, as editors show them.
struct TextPositionTracker {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var offset = 0
  private var line = 1
  private var column = 1

  /// Creates a tracker over UTF-8 bytes that must outlive it.
  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// The line and column of the byte at `target` (clamped to the text).
  mutating func position(at target: Int) -> (line: Int, column: Int) {
    let target = min(max(target, 0), bytes.count)
    if target < offset {
      offset = 0
      line = 1
      column = 1
    }
    var index = offset
    while index < target {
      let byte = bytes[index]
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      index += 1
    }
    offset = target
    return (line, column)
  }
}
