/// Text from an input, made safe to show inside a diagnostic.
///
/// Values read from a property list can hold anything: a line feed that would
/// forge a second diagnostic line, an escape sequence that restyles a terminal,
/// a zero-width space that makes `com.example.doc` and `com.example.​doc` look
/// the same. Diagnostics show such characters as Swift writes them (`\n`,
/// `\u{200B}`), so what is printed is what is in the file, visibly.
public enum DiagnosticText {
  /// The text with every control, format and line-separator character written as an escape.
  ///
  /// Escaped: C0 and C1 controls and DEL (`\t`, `\n`, `\r` by name, others as `\u{…}`), and the
  /// invisible format characters (zero-width spaces and joiners, bidirectional overrides, the
  /// byte-order mark, soft hyphens), line and paragraph separators, and unassigned or private
  /// code points are shown as `\u{…}` too. Everything else, non-ASCII letters and emoji
  /// included, is kept.
  ///
  /// - Parameter text: Text from an input.
  /// - Returns: The text, safe to print on one line.
  public static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      guard needsEscape(scalar) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\t": result += "\\t"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return result
  }

  /// The text escaped and in single quotes, as diagnostics quote values: `'com.example\u{200B}'`.
  ///
  /// - Parameter text: Text from an input.
  /// - Returns: The quoted text.
  public static func quoted(_ text: String) -> String {
    "'" + escaped(text) + "'"
  }

  /// Whether a scalar is invisible or could change how the surrounding output reads (and so is
  /// written as an escape by ``escaped(_:)``).
  ///
  /// - Parameter scalar: A Unicode scalar.
  /// - Returns: `true` for controls, format characters, separators, private-use and unassigned.
  public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return true }
    if scalar.isASCII { return false }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate,
      .unassigned:
      return true
    default:
      return false
    }
  }
}
