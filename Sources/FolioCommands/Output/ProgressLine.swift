import ProgressReporting

/// The live progress line, fitted to the terminal's width.
///
/// In full: `Packing  1,204/2,001 files  4.1 MiB/9.0 MiB  12.3 MiB/s  1:02 left  pages/a.txt`.
/// When the terminal is narrower, the path is shortened in the middle
/// (`pag…a.txt`), then fields are dropped, least useful first: the path,
/// the rate, the time left, the byte counts. Widths are display widths (a
/// CJK character takes two columns), and the line always stays one column
/// short of the edge, so no terminal wraps it and `\r` returns to its start.
struct ProgressLine {
  /// The word leading the line (`Packing`).
  var verb: String

  /// How long the work runs before a time left is shown (the first rates mislead).
  static let estimateAfter: Duration = .seconds(1)

  /// The narrowest a shortened path may become before it is dropped instead.
  static let shortestPath = 12

  /// The line for a snapshot.
  ///
  /// - Parameters:
  ///   - snapshot: The progress to show.
  ///   - columns: The terminal's width, or `nil` when unknown (nothing is dropped).
  /// - Returns: The line, without line break or escape sequences.
  func render(_ snapshot: ProgressSnapshot, columns: Int?) -> String {
    let files: String
    if let total = snapshot.totalFileCount {
      files =
        "\(ProgressDisplay.count(snapshot.completedFileCount))/\(ProgressDisplay.count(total)) \(Self.noun(total))"
    } else {
      files =
        "\(ProgressDisplay.count(snapshot.completedFileCount)) \(Self.noun(snapshot.completedFileCount))"
    }
    let bytes: String
    if let total = snapshot.totalByteCount {
      bytes =
        "\(ProgressDisplay.bytes(snapshot.completedByteCount))/\(ProgressDisplay.bytes(total))"
    } else {
      bytes = ProgressDisplay.bytes(snapshot.completedByteCount)
    }
    let rate = "\(ProgressDisplay.bytes(snapshot.throughput))/s"
    var time: String?
    if snapshot.isFinished {
      time = "in \(ProgressDisplay.clock(snapshot.elapsed))"
    } else if let remaining = snapshot.estimatedTimeRemaining,
      snapshot.elapsed >= Self.estimateAfter
    {
      time = "\(ProgressDisplay.clock(remaining)) left"
    }
    let path = snapshot.isFinished ? nil : snapshot.currentFile.map(Self.escaped)

    let full = [verb, files, bytes, rate, time].compactMap { $0 }
    guard let columns else { return (full + [path].compactMap { $0 }).joined(separator: "  ") }
    let room = max(1, columns - 1)

    // Fields kept, most useful first dropped last.
    let layouts: [[String]] = [
      full,
      [verb, files, bytes, time].compactMap { $0 },
      [verb, files, bytes],
      [verb, files],
      [files],
    ]
    if let path {
      for fields in layouts.prefix(2) {
        let fixed = fields.joined(separator: "  ")
        let left = room - DisplayWidth.of(fixed) - 2
        if left >= min(Self.shortestPath, DisplayWidth.of(path)) {
          return fixed + "  " + DisplayWidth.middleTruncated(path, fitting: left)
        }
      }
    }
    for fields in layouts {
      let line = fields.joined(separator: "  ")
      if DisplayWidth.of(line) <= room { return line }
    }
    return String(DisplayWidth.prefix(files, fitting: room))
  }

  /// `file` or `files`, agreeing with the count.
  static func noun(_ count: Int) -> String { count == 1 ? "file" : "files" }

  /// A path with control characters escaped, so it cannot move the cursor.
  static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A: out += "\\n"
      case 0x09: out += "\\t"
      case 0x0D: out += "\\r"
      case 0..<0x20, 0x7F..<0xA0:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
