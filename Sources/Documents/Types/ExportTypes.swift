import Archives
public import UniformTypes

/// Types the built-in exporters write that the system table does not declare.
///
/// Add them to a registry with ``TypeRegistryBuilder/addExportTypes()`` before
/// the user's own declarations (a user's declaration of the same identifier then
/// gets the usual conflict warning).
public enum ExportTypes {
  /// ISO 8859-1 (Latin-1) plain text.
  public static let latin1PlainText = UTType(resolved: "org.iso.latin-1-plain-text")

  /// The declarations of the types above.
  public static let declarations: [TypeDeclaration] = [
    TypeDeclaration(
      identifier: latin1PlainText.typeIdentifier, kind: .imported, conformsTo: [.plainText],
      tags: [TypeTag(.mimeType, "text/plain;charset=iso-8859-1")],
      typeDescription: "Latin-1 (ISO 8859-1) plain text", sourceName: "Folio exporters")
  ]
}

extension TypeRegistryBuilder {
  /// Adds the types the built-in exporters write (see ``ExportTypes``).
  public mutating func addExportTypes() {
    for declaration in ExportTypes.declarations { add(declaration) }
  }
}
