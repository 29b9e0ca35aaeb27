import Documents
import FolioSystem
import FoundationEssentials
public import PropertyLists

/// A single-file form a notebook exports to: plain text, Markdown, HTML or JSON.
///
/// Each form is written as a stream: a header, one section per page in reading
/// order, a footer, so a notebook of thousands of pages never sits in memory
/// whole. The plain-text form is the one ``NotebookTextParser`` reads back:
/// the title on the first line, then each page after a form feed (U+000C) on a
/// line of its own, each page followed by one newline.
public enum NotebookFormat: String, Sendable, Hashable, CaseIterable {
  /// UTF-8 plain text, pages separated by form feeds.
  case plainText
  /// Markdown: the title as a level-1 heading, each page a level-2 section.
  case markdown
  /// One self-contained HTML page, every text escaped, no outside resources.
  case html
  /// JSON: the metadata (title, page order, any other keys as `otherMetadata`) and the
  /// pages with their text.
  case json

  /// The type identifier of the form.
  public var typeIdentifier: String {
    switch self {
    case .plainText: "public.utf8-plain-text"
    case .markdown: "net.daringfireball.markdown"
    case .html: "public.html"
    case .json: "public.json"
    }
  }

  /// The form feed that separates pages in plain text.
  public static let pageSeparator: Character = "\u{0C}"

  /// Writes a notebook in this form, reading one page at a time.
  ///
  /// - Parameters:
  ///   - notebook: The opened notebook.
  ///   - write: Receives the output text piece by piece.
  ///   - onPage: Called after each page is written, with the page and its size in bytes.
  /// - Returns: Warnings about content the form cannot carry faithfully.
  /// - Throws: ``ExportError`` when a page cannot be read; whatever the closures throw.
  @discardableResult
  public func render(
    _ notebook: NotebookPackage, write: (String) throws -> Void,
    onPage: (NotebookPackage.Page, Int64) throws -> Void = { _, _ in }
  ) throws -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    try write(
      header(
        title: notebook.title, pageOrder: notebook.pages.map(\.identifier),
        otherMetadata: notebook.otherMetadataJSON))
    if self == .plainText && notebook.title.contains(Self.pageSeparator) {
      diagnostics.append(
        formFeedWarning("the title of '\(notebook.displayName)'", notebook.displayName))
    }
    for (index, page) in notebook.pages.enumerated() {
      let text = try page.text()
      if self == .plainText && text.contains(Self.pageSeparator) {
        diagnostics.append(formFeedWarning("'\(page.displayPath)'", page.displayPath))
      }
      try write(section(number: index + 1, identifier: page.identifier, text: text))
      try onPage(page, Int64(text.utf8.count))
    }
    try write(footer(pageCount: notebook.pages.count))
    return diagnostics
  }

  /// The whole notebook in this form, in memory.
  ///
  /// - Parameter snapshot: The notebook's state.
  /// - Returns: The text.
  public func render(_ snapshot: NotebookSnapshot) -> String {
    var out = header(title: snapshot.title, pageOrder: snapshot.pageOrder)
    for (index, identifier) in snapshot.pageOrder.enumerated() {
      out += section(
        number: index + 1, identifier: identifier, text: snapshot.pages[identifier] ?? "")
    }
    return out + footer(pageCount: snapshot.pageOrder.count)
  }

  private func formFeedWarning(_ what: String, _ file: String) -> Diagnostic {
    Diagnostic(
      severity: .warning, code: "FOLIO-NOTEBOOK-FORM-FEED",
      message:
        "\(what) contains a form feed, which separates pages in plain text; reading the text back will split it there",
      location: SourceLocation(file: file))
  }

  // MARK: Pieces

  func header(title: String, pageOrder: [UUID], otherMetadata: String? = nil) -> String {
    switch self {
    case .plainText:
      return title + "\n"
    case .markdown:
      return "# " + Self.markdownInline(title) + "\n"
    case .html:
      let escaped = Self.htmlEscape(title)
      return """
        <!DOCTYPE html>
        <html>
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="folio">
        <title>\(escaped)</title>
        <style>
        body { font-family: -apple-system, system-ui, sans-serif; max-width: 42em; margin: 2em auto; padding: 0 1em; line-height: 1.5; }
        section.page { border-top: 1px solid #ccc; margin-top: 1.5em; }
        section.page h2 { font-size: 1em; color: #666; }
        .text { white-space: pre-wrap; overflow-wrap: break-word; }
        </style>
        </head>
        <body>
        <h1>\(escaped)</h1>

        """
    case .json:
      let order = pageOrder.map { JSONText.quote($0.uuidString) }.joined(separator: ", ")
      let other = otherMetadata.map { ",\n  \"otherMetadata\": \($0)" } ?? ""
      return
        "{\n  \"title\": \(JSONText.quote(title)),\n  \"pageOrder\": [\(order)]\(other),\n  \"pages\": ["
    }
  }

  func section(number: Int, identifier: UUID, text: String) -> String {
    switch self {
    case .plainText:
      return "\u{0C}\n" + text + "\n"
    case .markdown:
      var body = Self.markdownBlock(text)
      if !body.isEmpty && !body.hasSuffix("\n") { body += "\n" }
      return "\n## Page \(number)\n\n" + body
    case .html:
      return """
        <section class="page" id="page-\(identifier.uuidString)">
        <h2>Page \(number)</h2>
        <div class="text">\(Self.htmlEscape(text))</div>
        </section>

        """
    case .json:
      return (number == 1 ? "\n" : ",\n")
        + "    {\"id\": \(JSONText.quote(identifier.uuidString)), \"text\": \(JSONText.quote(text))}"
    }
  }

  func footer(pageCount: Int) -> String {
    switch self {
    case .plainText, .markdown: ""
    case .html: "</body>\n</html>\n"
    case .json: pageCount == 0 ? "]\n}\n" : "\n  ]\n}\n"
    }
  }

  // MARK: Escaping

  /// Escapes text for HTML element content and attribute values.
  static func htmlEscape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.append(character)
      }
    }
    return out
  }

  /// Escapes a one-line text (a heading) so Markdown shows it literally.
  static func markdownInline(_ text: String) -> String {
    var out = ""
    for character in text {
      if "\\`*_[]<>#|".contains(character) { out.append("\\") }
      if character == "\n" || character == "\r" {
        out.append(" ")
      } else {
        out.append(character)
      }
    }
    return out
  }

  /// Keeps page text as written but escapes the line starts that Markdown would
  /// turn into headings, quotes, rules or setext underlines.
  static func markdownBlock(_ text: String) -> String {
    var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    for index in lines.indices {
      let line = lines[index]
      let trimmed = line.drop { $0 == " " }
      guard line.count - trimmed.count < 4, let first = trimmed.first else { continue }
      let isRule =
        "=-*_".contains(first)
        && trimmed.allSatisfy { $0 == first || $0 == " " || $0 == "\t" || $0 == "\r" }
      if first == "#" || first == ">" || isRule {
        lines[index] = line.prefix(line.count - trimmed.count) + "\\" + trimmed
      }
    }
    return lines.joined(separator: "\n")
  }
}
