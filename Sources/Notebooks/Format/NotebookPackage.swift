import Archives
public import Documents
import FolioSystem
public import FoundationEssentials
public import PropertyLists

/// A notebook package opened lazily: metadata read, pages read one at a time on demand.
///
/// The package is a ``FileWrapper`` tree: read from a folder, or from an archive
/// without expanding it. A notebook holds its file wrappers, so it is not `Sendable`:
/// use it on one task.
///
/// Opening checks the package's shape: `metadata.json` must be a JSON object with
/// a string `title` and a `pageOrder` array of page identifiers (UUIDs), and every
/// listed page must have a file `pages/<UUID>.txt` (an error naming the page
/// otherwise). A page file that `pageOrder` does not list is a warning; the page
/// is kept after the listed ones, in file-name order. A page listed twice is a
/// warning and is kept once. Two page files that name one page (`ABC….txt` and
/// `abc….txt` on a case-sensitive file system) are refused, naming both: neither
/// text is dropped quietly. What `metadata.json` may hold is bounded by
/// ``NotebookLimits``.
public struct NotebookPackage {
  /// One page: its identifier and its file, not yet read.
  public struct Page {
    /// The page's identifier.
    public var identifier: UUID
    /// The page's file.
    public var file: FileWrapper
    /// How messages name the page's file (`Notebook.examplenotebook/pages/<UUID>.txt`).
    public var displayPath: String
    /// Whether `pageOrder` lists the page (unlisted pages are appended).
    public var isListed: Bool

    /// The page file's size in bytes, known without reading it.
    public var byteCount: Int64 { file.regularFileSize ?? 0 }

    /// The page's text, read and checked as UTF-8 now.
    ///
    /// - Returns: The text.
    /// - Throws: ``ExportError`` `file-vanished` when the file is gone, `invalid-text` (with the
    ///   line and column) when it is not UTF-8.
    public func text() throws -> String {
      let data: Data
      do {
        data = try file.readRegularFileContents()
      } catch let error as PackagingError where error.code == .fileVanished {
        throw ExportError(
          .fileVanished,
          "'\(displayPath)' is gone: it was removed or moved after its package was opened",
          cause: error)
      }
      // Valid UTF-8 without a byte-order mark is the common case; the transcoder is the
      // slow path that drops a mark or names the line and column of a bad byte.
      if !data.starts(with: [0xEF, 0xBB, 0xBF]), let text = String(validating: data, as: UTF8.self)
      {
        return text
      }
      let checked = try TextTranscoder(from: .utf8, to: .utf8, file: displayPath).transcode(
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
  /// The members of `metadata.json` other than `title` and `pageOrder`.
  public var otherMetadata: [String: JSONValue]

  /// The other members of `metadata.json` as one compact JSON object with sorted keys, or
  /// `nil` when there are none (the JSON export carries them).
  public var otherMetadataJSON: String? {
    otherMetadata.isEmpty ? nil : JSONValue.object(otherMetadata).jsonText()
  }

  /// Opens the notebook whose root node is `root`.
  ///
  /// - Parameters:
  ///   - root: The package folder's wrapper.
  ///   - displayName: How messages name the package.
  ///   - limits: What `metadata.json` may hold.
  /// - Throws: ``ExportError`` `invalid-notebook` for a bad or missing `metadata.json`,
  ///   `missing-page` naming the first listed page that has no file, `duplicate-page`
  ///   naming two files of one page, `notebook-too-large` naming the limit passed.
  public init(root: FileWrapper, displayName: String, limits: NotebookLimits = .default) throws {
    self.displayName = displayName
    let metadataPath = displayName + "/metadata.json"
    guard let metadataNode = root.fileWrappers?["metadata.json"], metadataNode.isRegularFile
    else {
      throw ExportError(
        .invalidNotebook, "'\(displayName)' has no metadata.json, so it is not a notebook")
    }
    if let size = metadataNode.regularFileSize, size > limits.maximumMetadataSize {
      throw ExportError(
        .notebookTooLarge,
        "'\(metadataPath)' is \(size) bytes, more than the limit of \(limits.maximumMetadataSize) bytes for a notebook's metadata",
        location: SourceLocation(file: metadataPath))
    }
    let metadataData = try metadataNode.readRegularFileContents()
    guard metadataData.count <= limits.maximumMetadataSize else {
      throw ExportError(
        .notebookTooLarge,
        "'\(metadataPath)' holds more than the limit of \(limits.maximumMetadataSize) bytes for a notebook's metadata",
        location: SourceLocation(file: metadataPath))
    }
    let object: JSONValue
    do {
      object = try JSONDecoder().decode(JSONValue.self, from: metadataData)
    } catch {
      throw ExportError(.invalidNotebook, "'\(metadataPath)' is not valid JSON", cause: error)
    }
    guard case .object(let metadata) = object else {
      throw ExportError(.invalidNotebook, "'\(metadataPath)' must hold a JSON object")
    }
    guard case .string(let title) = metadata["title"] else {
      throw ExportError(.invalidNotebook, "'\(metadataPath)' has no string \"title\"")
    }
    guard case .array(let order) = metadata["pageOrder"] else {
      throw ExportError(.invalidNotebook, "'\(metadataPath)' has no \"pageOrder\" array")
    }
    guard title.utf8.count <= limits.maximumTitleLength else {
      throw ExportError(
        .notebookTooLarge,
        "'\(metadataPath)': the title is \(title.utf8.count) bytes, more than the limit of \(limits.maximumTitleLength)",
        location: SourceLocation(file: metadataPath))
    }
    guard order.count <= limits.maximumPageOrderCount else {
      throw ExportError(
        .notebookTooLarge,
        "'\(metadataPath)': pageOrder lists \(order.count) pages, more than the limit of \(limits.maximumPageOrderCount)",
        location: SourceLocation(file: metadataPath))
    }
    self.title = title
    var other = metadata
    other["title"] = nil
    other["pageOrder"] = nil
    otherMetadata = other

    var files: [UUID: (name: String, file: FileWrapper)] = [:]
    var diagnostics: [Diagnostic] = []
    let pagesFolder = root.fileWrappers?["pages"]
    if let pagesFolder, !pagesFolder.isDirectory {
      throw ExportError(.invalidNotebook, "'\(displayName)/pages' is not a folder")
    }
    let children = pagesFolder?.fileWrappers ?? [:]
    for name in children.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      guard let node = children[name] else { continue }
      let stem = name.hasSuffix(".txt") ? String(name.dropLast(4)) : nil
      guard let stem, let identifier = UUID(uuidString: stem), node.isRegularFile else {
        diagnostics.append(
          Diagnostic(
            severity: .warning, code: "FOLIO-NOTEBOOK-STRAY-FILE",
            message:
              "'\(displayName)/pages/\(name)' is not a page (pages are <UUID>.txt files); ignored",
            location: SourceLocation(file: "\(displayName)/pages/\(name)")))
        continue
      }
      // UUIDs parse in either case, so `ABC….txt` and `abc….txt` (two files on a
      // case-sensitive file system) are one page: keeping either would drop the other.
      if let earlier = files[identifier] {
        throw ExportError(
          .duplicatePage,
          "'\(displayName)/pages/\(earlier.name)' and '\(displayName)/pages/\(name)' are two files for page \(identifier.uuidString); keep one of them",
          location: SourceLocation(file: "\(displayName)/pages/\(name)"))
      }
      files[identifier] = (name, node)
    }

    var pages: [Page] = []
    var seen = Set<UUID>()
    var repeats = 0
    for (index, entry) in order.enumerated() {
      guard case .string(let text) = entry, let identifier = UUID(uuidString: text) else {
        throw ExportError(
          .invalidNotebook,
          "'\(metadataPath)': pageOrder[\(index)] is not a page identifier (a UUID)")
      }
      guard seen.insert(identifier).inserted else {
        repeats += 1
        if repeats <= limits.maximumRepeatWarnings {
          diagnostics.append(
            Diagnostic(
              severity: .warning, code: "FOLIO-NOTEBOOK-REPEATED-PAGE",
              message:
                "page \(text) is listed more than once in pageOrder (pageOrder[\(index)]); exported once",
              location: SourceLocation(file: metadataPath)))
        }
        continue
      }
      guard let file = files[identifier] else {
        throw ExportError(
          .missingPage,
          "page \(text) is listed in pageOrder but '\(displayName)/pages/\(text).txt' does not exist",
          location: SourceLocation(file: metadataPath))
      }
      pages.append(
        Page(
          identifier: identifier, file: file.file,
          displayPath: "\(displayName)/pages/\(file.name)", isListed: true))
    }
    if repeats > limits.maximumRepeatWarnings {
      diagnostics.append(
        Diagnostic(
          severity: .warning, code: "FOLIO-NOTEBOOK-REPEATED-PAGE",
          message:
            "\(repeats - limits.maximumRepeatWarnings) more repeated entries in pageOrder (\(repeats) in all); each page exported once",
          location: SourceLocation(file: metadataPath)))
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
      pages.append(
        Page(
          identifier: identifier, file: file.file,
          displayPath: "\(displayName)/pages/\(file.name)", isListed: false))
    }
    self.pages = pages
    self.diagnostics = diagnostics
  }

  /// Opens the notebook package at `url`.
  ///
  /// - Parameters:
  ///   - url: The package folder.
  ///   - displayName: How messages name it (defaults to its path).
  ///   - limits: What `metadata.json` may hold.
  /// - Throws: ``ExportError`` as ``init(root:displayName:limits:)`` does, or `read-failed`.
  public init(
    contentsOf url: URL, displayName: String? = nil, limits: NotebookLimits = .default
  ) throws {
    let display = displayName ?? url.path
    let root: FileWrapper
    do {
      root = try FileWrapper(readingContentsOf: url)
    } catch let error as PackagingError {
      throw ExportError(.readFailed, "cannot read '\(display)'", cause: error)
    }
    guard root.isDirectory else {
      throw ExportError(.invalidInput, "'\(display)' is not a folder")
    }
    try self.init(root: root, displayName: display, limits: limits)
  }

  /// Reads every page and returns the whole notebook as a snapshot.
  ///
  /// - Returns: The snapshot; unlisted pages are part of its `pageOrder`.
  /// - Throws: ``ExportError`` when a page cannot be read or is not UTF-8.
  public func snapshot() throws -> NotebookSnapshot {
    var texts: [UUID: String] = [:]
    for page in pages { texts[page.identifier] = try page.text() }
    return NotebookSnapshot(
      metadata: NotebookMetadata(
        title: title, pageOrder: pages.map(\.identifier), otherMembers: otherMetadata),
      pages: texts, diagnostics: diagnostics)
  }
}
