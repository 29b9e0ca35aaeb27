import Archives

/// A file-system name for an output line, escaped the way archive entries are.
///
/// Names on disk are as untrusted as names in archives: ESC, BEL or a
/// newline printed raw would drive the terminal or forge a line.
enum PrintedName {
  /// Escapes control characters, invalid bytes, `\` and `'`, like a listing line.
  ///
  /// - Parameter path: A path or name as the file system gave it.
  /// - Returns: Printable text on one line.
  static func escaped(_ path: String) -> String {
    EntryName.escapeForListing(EntryName(path))
  }
}
