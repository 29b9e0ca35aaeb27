public import Foundation

/// The state of an example notebook: its title and its pages' text in order.
///
/// On disk a notebook is a package (`com.example.notebook`, extension
/// `examplenotebook`): `metadata.json` holds `{"title": …, "pageOrder": [UUID…]}`
/// and `pages/<UUID>.txt` holds each page as UTF-8 text.
public struct NotebookSnapshot: Sendable, Hashable {
  /// The notebook's type identifier, as `Samples/NotebookApp/Info.plist` declares it.
  public static let typeIdentifier = "com.example.notebook"

  /// The notebook's title.
  public var title: String
  /// The pages' identifiers in reading order.
  public var pageOrder: [UUID]
  /// Each page's text by identifier.
  public var pages: [UUID: String]

  /// Creates a snapshot.
  ///
  /// - Parameters:
  ///   - title: The notebook's title.
  ///   - pageOrder: The pages' identifiers in reading order.
  ///   - pages: Each page's text by identifier.
  public init(title: String, pageOrder: [UUID], pages: [UUID: String]) {
    self.title = title
    self.pageOrder = pageOrder
    self.pages = pages
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

  /// The pages' text in reading order (pages without text read as empty).
  public var orderedPageTexts: [String] { pageOrder.map { pages[$0] ?? "" } }
}
