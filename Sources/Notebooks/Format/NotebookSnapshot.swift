import Documents
public import FoundationEssentials
public import PropertyLists

/// The state of an example notebook: its metadata and its pages' text.
///
/// The shape is Apple's notebook sample's (`metadata`, `pages`). On disk a notebook is
/// a package (`com.example.notebook`, extension `examplenotebook`): `metadata.json`
/// holds ``NotebookMetadata`` and `pages/<UUID>.txt` each page as UTF-8 text.
public struct NotebookSnapshot: Sendable, Hashable {
  /// The notebook's type identifier, as `Samples/NotebookApp/Info.plist` declares it.
  public static let typeIdentifier = "com.example.notebook"

  /// The title, the page order and any other members of `metadata.json`.
  public var metadata: NotebookMetadata
  /// Each page's text by identifier.
  public var pages: [UUID: String]
  /// Warnings from reading the notebook (unlisted or repeated pages, stray files); not
  /// part of the notebook's content, so snapshots compare without them.
  public var diagnostics: [Diagnostic]

  /// Creates a snapshot.
  ///
  /// - Parameters:
  ///   - metadata: The title, page order and other metadata.
  ///   - pages: Each page's text by identifier.
  ///   - diagnostics: Warnings from reading it.
  public init(metadata: NotebookMetadata, pages: [UUID: String], diagnostics: [Diagnostic] = []) {
    self.metadata = metadata
    self.pages = pages
    self.diagnostics = diagnostics
  }

  /// Creates a snapshot from a title, a page order and the pages' text.
  ///
  /// - Parameters:
  ///   - title: The notebook's title.
  ///   - pageOrder: The pages' identifiers in reading order.
  ///   - pages: Each page's text by identifier.
  public init(title: String, pageOrder: [UUID], pages: [UUID: String]) {
    self.init(metadata: NotebookMetadata(title: title, pageOrder: pageOrder), pages: pages)
  }

  /// Creates a snapshot from page texts in order, giving each page a new identifier.
  ///
  /// - Parameters:
  ///   - title: The notebook's title.
  ///   - pageTexts: The pages' text in reading order.
  public init(title: String, pageTexts: [String]) {
    let identifiers = pageTexts.map { _ in UUID() }
    self.init(
      title: title, pageOrder: identifiers,
      pages: Dictionary(uniqueKeysWithValues: zip(identifiers, pageTexts)))
  }

  /// The notebook's title.
  public var title: String {
    get { metadata.title }
    set { metadata.title = newValue }
  }

  /// The pages' identifiers in reading order.
  public var pageOrder: [UUID] {
    get { metadata.pageOrder }
    set { metadata.pageOrder = newValue }
  }

  /// The pages' text in reading order (pages without text read as empty).
  public var orderedPageTexts: [String] { pageOrder.map { pages[$0] ?? "" } }

  public static func == (lhs: NotebookSnapshot, rhs: NotebookSnapshot) -> Bool {
    lhs.metadata == rhs.metadata && lhs.pages == rhs.pages
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(metadata)
    hasher.combine(pages)
  }
}
