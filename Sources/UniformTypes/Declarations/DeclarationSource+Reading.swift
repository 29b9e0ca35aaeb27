public import FoundationEssentials
public import PropertyLists

extension DeclarationSource {
  /// Reads a property list file (XML, binary or JSON) and decodes its declarations.
  ///
  /// The reader's warnings (such as a repeated key) come first in ``diagnostics``.
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - displayName: The name used in locations; the path when `nil`.
  ///   - variables: Build variables to substitute in declaration strings.
  /// - Throws: ``PropertyListError`` when the file cannot be read or parsed.
  public init(
    contentsOf url: URL, displayName: String? = nil, variables: BuildVariables = .init()
  ) throws {
    let document = try PropertyListReader.read(contentsOf: url, displayName: displayName)
    self.init(
      document: document, name: displayName ?? url.path, variables: variables)
  }

  /// Decodes the declarations of a document the reader produced.
  ///
  /// A key repeated in a dictionary is read as Foundation reads it (see
  /// ``PropertyListDocument/rootWithUniqueKeys``); the reader's warning about it is kept.
  ///
  /// - Parameters:
  ///   - document: The document.
  ///   - name: The name used in locations.
  ///   - variables: Build variables to substitute in declaration strings.
  public init(document: PropertyListDocument, name: String, variables: BuildVariables = .init()) {
    self.init(decoding: document.rootWithUniqueKeys, name: name, variables: variables)
    diagnostics = document.diagnostics + diagnostics
  }
}
