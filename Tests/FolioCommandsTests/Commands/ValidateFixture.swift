import FolioCommands
import FolioTestSupport
import Foundation
import Testing

/// One `folio validate` run over fixture files, with its JSON report decoded.
struct ValidateRun {
  struct Entry: Decodable {
    var file: String?
    var line: Int?
    var column: Int?
    var byteOffset: Int?
    var severity: String
    var code: String
    var message: String
    var hint: String?
  }
  struct Report: Decodable {
    var diagnostics: [Entry]
  }

  var status: Int32
  var standardOutput: String
  var standardError: String
  var diagnostics: [Entry]

  /// The diagnostics with a code.
  func with(code: String) -> [Entry] { diagnostics.filter { $0.code == code } }
}

/// A fixture property list and the place of a marker inside it.
struct Fixture {
  var name = "Info.plist"
  var text: String

  /// The 1-based line and column where `marker` starts (its first occurrence after `after`).
  func position(of marker: String, after: String? = nil) -> (line: Int, column: Int) {
    var searchStart = text.startIndex
    if let after, let range = text.range(of: after) { searchStart = range.upperBound }
    guard let range = text.range(of: marker, range: searchStart..<text.endIndex) else {
      Issue.record("marker \(marker) not in fixture")
      return (0, 0)
    }
    let before = text[text.startIndex..<range.lowerBound]
    let line = before.filter { $0 == "\n" }.count + 1
    let lineStart = before.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
    let column = text[lineStart..<range.lowerBound].unicodeScalars.count + 1
    return (line, column)
  }
}

/// Wraps declaration arrays in an Info.plist.
func infoPlist(exported: String = "", imported: String = "", documentTypes: String = "") -> String {
  var body = ""
  if !exported.isEmpty {
    body += "  <key>UTExportedTypeDeclarations</key>\n  <array>\n\(exported)  </array>\n"
  }
  if !imported.isEmpty {
    body += "  <key>UTImportedTypeDeclarations</key>\n  <array>\n\(imported)  </array>\n"
  }
  if !documentTypes.isEmpty {
    body += "  <key>CFBundleDocumentTypes</key>\n  <array>\n\(documentTypes)  </array>\n"
  }
  return """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
      <key>CFBundleIdentifier</key>
      <string>com.example.app</string>
    \(body)</dict>
    </plist>

    """
}

/// One declaration dictionary, indented for `infoPlist`.
func typeDict(
  _ identifier: String?, conformsTo: [String] = ["public.data"], extensions: [String] = [],
  extra: String = ""
) -> String {
  var text = "    <dict>\n"
  if let identifier {
    text += "      <key>UTTypeIdentifier</key>\n      <string>\(identifier)</string>\n"
  }
  if !conformsTo.isEmpty {
    text += "      <key>UTTypeConformsTo</key>\n      <array>\n"
    for parent in conformsTo { text += "        <string>\(parent)</string>\n" }
    text += "      </array>\n"
  }
  if !extensions.isEmpty {
    text += "      <key>UTTypeTagSpecification</key>\n      <dict>\n"
    text += "        <key>public.filename-extension</key>\n        <array>\n"
    for item in extensions { text += "          <string>\(item)</string>\n" }
    text += "        </array>\n      </dict>\n"
  }
  text += extra
  text += "    </dict>\n"
  return text
}

/// One document-type dictionary, indented for `infoPlist`.
func documentTypeDict(
  name: String = "Doc", role: String? = "Editor", rank: String? = "Owner",
  contentTypes: [String] = [], extra: String = ""
) -> String {
  var text = "    <dict>\n      <key>CFBundleTypeName</key>\n      <string>\(name)</string>\n"
  if let role { text += "      <key>CFBundleTypeRole</key>\n      <string>\(role)</string>\n" }
  if let rank { text += "      <key>LSHandlerRank</key>\n      <string>\(rank)</string>\n" }
  if !contentTypes.isEmpty {
    text += "      <key>LSItemContentTypes</key>\n      <array>\n"
    for item in contentTypes { text += "        <string>\(item)</string>\n" }
    text += "      </array>\n"
  }
  text += extra
  text += "    </dict>\n"
  return text
}

/// Runs `folio validate --format json [arguments] FILE…` in-process on fixtures in a temporary folder.
func runValidate(_ fixtures: [Fixture], arguments: [String] = []) async throws -> ValidateRun {
  try await withTemporaryDirectory("validate") { folder in
    for fixture in fixtures {
      // A name may be a path inside a bundle (`Foo.mdimporter/Contents/Info.plist`).
      let url = folder.appendingPathComponent(fixture.name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(fixture.text.utf8).write(to: url)
    }
    let context = CommandContext(
      standardOutput: .buffer(), standardError: .buffer(), environment: [:],
      currentDirectory: folder.path)
    let status = await FolioMain.run(
      ["validate", "--format", "json"] + arguments + fixtures.map(\.name), context: context)
    let report = try JSONDecoder().decode(
      ValidateRun.Report.self, from: context.standardOutput.data)
    return ValidateRun(
      status: status, standardOutput: context.standardOutput.text,
      standardError: context.standardError.text, diagnostics: report.diagnostics)
  }
}

/// Checks that a run has exactly one diagnostic with a code, at a marker's position, and an exit status.
func expectSingle(
  _ run: ValidateRun, code: String, severity: String, at position: (line: Int, column: Int),
  status: Int32, sourceLocation: SourceLocation = #_sourceLocation
) {
  let matches = run.with(code: code)
  #expect(
    matches.count == 1, "diagnostics: \(run.diagnostics.map { "\($0.code) \($0.message)" })",
    sourceLocation: sourceLocation)
  guard let diagnostic = matches.first else { return }
  #expect(diagnostic.severity == severity, sourceLocation: sourceLocation)
  #expect(diagnostic.line == position.line, "\(diagnostic.message)", sourceLocation: sourceLocation)
  #expect(
    diagnostic.column == position.column, "\(diagnostic.message)", sourceLocation: sourceLocation)
  #expect(diagnostic.hint?.isEmpty == false, sourceLocation: sourceLocation)
  #expect(run.status == status, sourceLocation: sourceLocation)
}
