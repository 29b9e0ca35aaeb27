import PropertyLists

/// ANSI styling for a terminal: the command's business, never the library's.
enum TerminalStyle {
  /// The severity word in bold colour: red errors, yellow warnings, cyan notes.
  static func severity(_ severity: Diagnostic.Severity, _ text: String) -> String {
    let code =
      switch severity {
      case .error: "31"
      case .warning: "33"
      case .note: "36"
      }
    return "\u{1B}[1;\(code)m\(text)\u{1B}[0m"
  }
}
