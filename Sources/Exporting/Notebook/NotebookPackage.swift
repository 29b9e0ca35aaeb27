public import Foundation
public import PropertyLists

/// A notebook package opened lazily: metadata read, pages read one at a time on demand.
///
/// Opening checks the package's shape: `metadata.json` must be a JSON object with
/// a string `title` and a `pageOrder` array of page identifiers (UUIDs), and every
/// listed page must have a file `pages/<UUID>.txt` (an error naming the page
/// otherwise). A page file that `pageOrder` does not list is a warning; the page
/// is kept after the listed ones, in file-name order. A page listed twice is a
/// warning and is kept once.
public struct NotebookPackage: Sendable {
  /// One page: its identifier and its file, not yet read.
  public struct Page: Sendable {
    /// The page's identifier.
    public var identifier: UUID
    /// The page's file node.
    public var node: PackageNode
    /// Whether `pageOrder` lists the page (unlisted pages are appended).
    public var isListed: Bool

    /// The page's text, read and checked as UTF-8 now.
    ///
    /// - Returns: The text.
    /// - Throws: ``ExportError`` `file-vanished` when the file is gone, `invalid-text` (with the
    ///   line and column) when it is not UTF-8.
    public func text() throws -> String {
      let data = try node.regularFileContents()
      // Valid UTF-8 without a byte-order mark is the common case; the transcoder is the
      // slow path that drops a mark or names the line and column of a bad byte.
      if !data.starts(with: [0xEF, 0xBB, 0xBF]), let text = String(validating: data, as: UTF8.self)
      {
        return text
      }
      let checked = try TextTranscoder(from: .utf8, to: .utf8, file: node.displayPath).transcode(
        data)
      return String(decoding: checked, as: UTF8.self)
    }
  }

  /// The notebook's title.
  public var title: String
  /// The pages in reading order: listed pages first, then unlisted ones.
  public var pages: [Page]
  /// Warnings found while opening (unlisted or repeated pages, stray files).
  public var diagnostics: [Diagnostic]
  /// How messages name the package.
  public var displayName: String
  /// The keys of `metadata.json` other than `title` and `pageOrder`, as one compact JSON
  /// object with sorted keys, or `nil` when there are none (the JSON export carries them).
  public var otherMetadataJSON: String?

  /// Opens the notebook whose root node is `root`.
  ///
  /// - Parameters:
  ///   - root: The package folder's node (from ``PackageTree``).
  ///   - displayName: How messages name the package.
  /// - Throws: ``ExportError`` `invalid-notebook` for a bad or missing `metadata.json`,
  ///   `missing-page` naming the first listed page that has no file.
  public init(root: PackageNode, displayName: String) throws {
    self.displayName = displayName
    let metadataPath = displayName + "/metadata.json"
    guard let metadataNode = root.node(at: "metadata.json"), metadataNode.kind == .regularFile
    else {
      throw ExportError(
        .invalidNotebook, "'\(displayName)' has no metadata.json, so it is not a notebook")
    }
    let metadataData = try metadataNode.regularFileContents()
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: metadataData)
    } catch {
      throw ExportError(.invalidNotebook, "'\(metadataPath)' is not valid JSON", cause: error)
    }
    guard let metadata = object as? [String: Any] else {
      throw ExportError(.invalidNotebook, "'\(metadataPath)' must hold a JSON object")
    }
    guard let title = metadata["title"] as? String else {
      throw ExportError(.invalidNotebook, "'\(metadataPath)' has no string \"title\"")
    }
    guard let order = metadata["pageOrder"] as? [Any] else {
      throw ExportError(.invalidNotebook, "'\(metadataPath)' has no \"pageOrder\" array")
    }
    self.title = title
    var other = metadata
    other["title"] = nil
    other["pageOrder"] = nil
    if !other.isEmpty,
      let data = try? JSONSerialization.data(
        withJSONObject: other, options: [.sortedKeys, .withoutEscapingSlashes])
    {
      otherMetadataJSON = String(decoding: data, as: UTF8.self)
    }

    var files: [UUID: (name: String, node: PackageNode)] = [:]
    var diagnostics: [Diagnostic] = []
    let pagesFolder = root.node(at: "pages")
    if let pagesFolder, pagesFolder.kind != .directory {
      throw ExportError(.invalidNotebook, "'\(displayName)/pages' is not a folder")
    }
    for name in pagesFolder?.sortedChildNames ?? [] {
      guard let node = pagesFolder?.children?[name] else { continue }
      let stem = name.hasSuffix(".txt") ? String(name.dropLast(4)) : nil
      guard let stem, let identifier = UUID(uuidString: stem), node.kind == .regularFile else {
        diagnostics.append(
          Diagnostic(
            severity: .warning, code: "FOLIO-NOTEBOOK-STRAY-FILE",
            message:
              "'\(displayName)/pages/\(name)' is not a page (pages are <UUID>.txt files); ignored",
            location: SourceLocation(file: "\(displayName)/pages/\(name)")))
        continue
      }
      files[identifier] = (name, node)
    }

    var pages: [Page] = []
    var seen = Set<UUID>()
    for (index, entry) in order.enumerated() {
      guard let text = entry as? String, let identifier = UUID(uuidString: text) else {
        throw ExportError(
          .invalidNotebook,
          "'\(metadataPath)': pageOrder[\(index)] is not a page identifier (a UUID)")
      }
      guard seen.insert(identifier).inserted else {
        diagnostics.append(
          Diagnostic(
            severity: .warning, code: "FOLIO-NOTEBOOK-REPEATED-PAGE",
            message: "page \(text) is listed more than once in pageOrder; exported once",
            location: SourceLocation(file: metadataPath)))
        continue
      }
      guard let file = files[identifier] else {
        throw ExportError(
          .missingPage,
          "page \(text) is listed in pageOrder but '\(displayName)/pages/\(text).txt' does not exist",
          location: SourceLocation(file: metadataPath))
      }
      pages.append(Page(identifier: identifier, node: file.node, isListed: true))
    }
    let unlisted = files.filter { !seen.contains($0.key) }.sorted { $0.value.name < $1.value.name }
    for (identifier, file) in unlisted {
      diagnostics.append(
        Diagnostic(
          severity: .warning, code: "FOLIO-NOTEBOOK-UNLISTED-PAGE",
          message:
            "'\(displayName)/pages/\(file.name)' is not listed in pageOrder; appended after the listed pages",
          location: SourceLocation(file: metadataPath),
          hint: "add \"\(identifier.uuidString)\" to pageOrder in metadata.json"))
      pages.append(Page(identifier: identifier, node: file.node, isListed: false))
    }
    self.pages = pages
    self.diagnostics = diagnostics
  }

  /// Opens the notebook package at `url`.
  ///
  /// - Parameters:
  ///   - url: The package folder.
  ///   - displayName: How messages name it (defaults to its path).
  /// - Throws: ``ExportError`` as ``init(root:displayName:)`` does, or `read-failed`.
  public init(contentsOf url: URL, displayName: String? = nil) throws {
    let display = displayName ?? url.path
    try self.init(
      root: try PackageTree(reading: url, displayName: display).root, displayName: display)
  }

  /// Reads every page and returns the whole notebook as a snapshot.
  ///
  /// - Returns: The snapshot; unlisted pages are part of its `pageOrder`.
  /// - Throws: ``ExportError`` when a page cannot be read or is not UTF-8.
  public func snapshot() throws -> NotebookSnapshot {
    var texts: [UUID: String] = [:]
    for page in pages { texts[page.identifier] = try page.text() }
    return NotebookSnapshot(title: title, pageOrder: pages.map(\.identifier), pages: texts)
  }
}
