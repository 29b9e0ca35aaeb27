import Documents
/// Reads plain text back into a notebook: one page per form-feed- or blank-line-separated block.
///
/// When the text holds a form feed (U+000C) it is in the form
/// ``NotebookFormat/plainText`` writes: everything before the first form feed is
/// the title (one trailing newline dropped), and each form feed starts a page
/// (one newline right after the form feed and one at the page's end dropped),
/// so notebook → text → notebook keeps every page's text exactly. Otherwise
/// the text is split at blank lines: each run of non-blank lines is a page
/// ending in a newline, and the title is the caller's fallback (the file's name).
public enum NotebookTextParser {
  /// Splits text into a notebook.
  ///
  /// - Parameters:
  ///   - text: The whole text.
  ///   - fallbackTitle: The title when the text does not carry one.
  /// - Returns: The notebook, with a new identifier for each page.
  public static func parse(_ text: String, fallbackTitle: String) -> NotebookSnapshot {
    if text.contains(NotebookFormat.pageSeparator) {
      let segments = text.split(
        separator: NotebookFormat.pageSeparator, omittingEmptySubsequences: false)
      var title = String(segments[0])
      if title.hasSuffix("\n") || title.hasSuffix("\r\n") {
        title.removeLast()  // "\r\n" is one Character.
      }
      let pages = segments.dropFirst().map { segment -> String in
        var page = Substring(segment)
        if page.hasPrefix("\r\n") || page.hasPrefix("\n") { page = page.dropFirst() }
        if page.hasSuffix("\n") || page.hasSuffix("\r\n") { page = page.dropLast() }
        return String(page)
      }
      return NotebookSnapshot(title: title.isEmpty ? fallbackTitle : title, pageTexts: pages)
    }
    var pages: [String] = []
    var current: [Substring] = []
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      if line.allSatisfy({ $0.isWhitespace }) {
        if !current.isEmpty { pages.append(current.joined(separator: "\n") + "\n") }
        current.removeAll()
      } else {
        current.append(line)
      }
    }
    if !current.isEmpty { pages.append(current.joined(separator: "\n") + "\n") }
    return NotebookSnapshot(title: fallbackTitle, pageTexts: pages)
  }
}
