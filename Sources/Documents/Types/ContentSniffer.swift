import Archives
public import FoundationEssentials
public import UniformTypes

/// Tells a file's type from its first bytes, for inputs with no telling name (standard input,
/// a file without an extension), through a registry's content rules.
public enum ContentSniffer {
  /// How many leading bytes are looked at, at least (the registry may read more).
  public static let prefixLength = 4096

  /// The type the bytes look like, or `nil` when they look like nothing in particular.
  ///
  /// The registry's content rules decide (the shared MIME database's magic and root-XML
  /// rules when it is loaded, and Folio's own: property lists, JSON, XML, UTF-16 and UTF-8
  /// text with or without a byte-order mark, archives). Bytes that are neither a known
  /// format nor UTF-8 text give `nil`.
  ///
  /// - Parameters:
  ///   - prefix: The first bytes (up to the registry's ``TypeRegistry/contentReadLength``).
  ///   - registry: The registry whose rules apply; the compiled-in system types by default.
  /// - Returns: The type, or `nil`.
  public static func type(of prefix: Data, registry: TypeRegistry = .default) -> UTType? {
    let bytes = [UInt8](prefix.prefix(max(prefixLength, registry.contentReadLength)))
    let result = registry.identification(forFileNamed: "", kind: .regularFile, content: bytes)
    guard result.evidence == .content, result.identifier != .data,
      result.identifier != .plainText
    else { return nil }
    return result.type
  }
}
