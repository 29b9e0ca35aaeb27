import Archives
public import UniformTypes

/// How outputs are named when the user does not name them.
public enum ExportNaming {
  /// The input's name without the extension its type gives it, plus the preferred
  /// extension of `outputType` (`Notebook.examplenotebook` → `Notebook.txt`).
  ///
  /// When the stripped name already ends in that extension (`Notes.examplenotebook.zip`
  /// expanding to a notebook), it is kept as it is. When the result would be the
  /// input's own name (`Info.plist` → `Info.plist`), `distinguishing` is added to
  /// the base name (`Info-binary.plist`).
  ///
  /// - Parameters:
  ///   - input: The input.
  ///   - outputType: The output's type.
  ///   - registry: The types known.
  ///   - distinguishing: A word that tells the output from the input when their names would match.
  /// - Returns: The file name.
  public static func replacingExtension(
    of input: ExportItem, with outputType: UTType, registry: TypeRegistry,
    distinguishing: String? = nil
  ) -> String {
    let base = baseName(of: input.fileName, type: input.type, registry: registry)
    guard let newExtension = registry.preferredFilenameExtension(for: outputType) else {
      return base
    }
    if base.lowercased().hasSuffix("." + newExtension.lowercased()) { return base }
    let name = base + "." + newExtension
    if name == input.fileName, let distinguishing {
      return base + "-" + distinguishing + "." + newExtension
    }
    return name
  }

  /// The input's whole name plus the preferred extension of `outputType`
  /// (`Notebook.examplenotebook` → `Notebook.examplenotebook.zip`), as archivers name archives.
  ///
  /// - Parameters:
  ///   - input: The input.
  ///   - outputType: The output's type.
  ///   - registry: The types known.
  /// - Returns: The file name.
  public static func appendingExtension(
    to input: ExportItem, for outputType: UTType, registry: TypeRegistry
  ) -> String {
    guard let newExtension = registry.preferredFilenameExtension(for: outputType) else {
      return input.fileName
    }
    return input.fileName + "." + newExtension
  }

  /// A name without the extension that gives it its type (`a.tar.gz` → `a`, `Info.plist` → `Info`).
  ///
  /// The longest suffix that names `type` or one of its supertypes is removed; a
  /// name whose extension means nothing for the type keeps its last extension off
  /// only when that extension is unknown to the registry.
  ///
  /// - Parameters:
  ///   - fileName: The name.
  ///   - type: The type the item has.
  ///   - registry: The types known.
  /// - Returns: The base name (never empty).
  public static func baseName(of fileName: String, type: UTType, registry: TypeRegistry)
    -> String
  {
    let lowered = fileName.lowercased()
    var best: String?
    for candidate in extensionSuffixes(of: fileName) {
      let types = registry.types(forFilenameExtension: candidate)
      if types.contains(where: {
        registry.conforms(type, to: $0) || registry.conforms($0, to: type)
      }) {
        best = candidate
        break
      }
    }
    guard let best, lowered.hasSuffix("." + best.lowercased()) else { return fileName }
    let base = String(fileName.dropLast(best.count + 1))
    return base.isEmpty ? fileName : base
  }

  /// The possible extensions of a name, longest first (`a.tar.gz` → `tar.gz`, `gz`).
  static func extensionSuffixes(of name: String) -> [String] {
    let characters = Array(name)
    var start = 0
    while start < characters.count && characters[start] == "." { start += 1 }
    var suffixes: [String] = []
    var index = start
    while index < characters.count {
      if characters[index] == ".", index > start, index + 1 < characters.count {
        suffixes.append(String(characters[(index + 1)...]))
      }
      index += 1
    }
    return suffixes
  }
}
