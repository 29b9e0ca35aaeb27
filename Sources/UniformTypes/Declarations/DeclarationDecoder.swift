import FolioSystem
import PropertyLists

/// Turns property-list values into declarations, collecting problems as it goes.
struct DeclarationDecoder {
  static let exportedKey = "UTExportedTypeDeclarations"
  static let importedKey = "UTImportedTypeDeclarations"
  static let documentTypesKey = "CFBundleDocumentTypes"
  static let packageTypeKey = "CFBundlePackageType"

  /// Keys whose values are type identifiers.
  static let identifierKeys: Set<String> = [
    "UTTypeIdentifier", "UTTypeConformsTo", "LSItemContentTypes",
  ]
  /// Keys of a type declaration Folio reads.
  static let declarationKeys: Set<String> = [
    "UTTypeIdentifier", "UTTypeConformsTo", "UTTypeDescription", "UTTypeIconFile",
    "UTTypeIconFiles", "UTTypeIcons", "UTTypeReferenceURL", "UTTypeVersion",
    "UTTypeTagSpecification",
  ]
  /// Keys Apple used in older declarations; kept without interpretation or warning.
  static let legacyDeclarationKeys: Set<String> = [
    "UTTypeSize320IconFile", "UTTypeSize64IconFile", "UTTypeIconName", "UTTypeIconBadgeName",
  ]
  /// Keys of a document type Folio reads.
  static let documentTypeKeys: Set<String> = [
    "CFBundleTypeName", "CFBundleTypeRole", "LSHandlerRank", "LSItemContentTypes",
    "LSTypeIsPackage", "CFBundleTypeExtensions", "CFBundleTypeMIMETypes", "CFBundleTypeOSTypes",
    "CFBundleTypeIconFile", "NSDocumentClass", "NSExportableTypes",
  ]
  /// Other keys Apple documents for document types; kept without interpretation or warning.
  static let otherDocumentTypeKeys: Set<String> = [
    "CFBundleTypeIconFiles", "CFBundleTypeIconSystemGenerated", "LSIsAppleDefaultForType",
    "CFBundleTypeIconName",
  ]

  let sourceName: String
  let variables: BuildVariables
  var diagnostics: [Diagnostic] = []
  var unresolved: [DeclarationSource.UnresolvedVariables] = []

  init(sourceName: String, variables: BuildVariables) {
    self.sourceName = sourceName
    self.variables = variables
  }

  mutating func decode(_ root: PropertyListValue) -> DeclarationSource {
    var source = DeclarationSource(name: sourceName)
    guard let entries = root.dictionaryEntries else {
      wrongType(root, expected: "a dict at the root", key: "the root")
      source.diagnostics = diagnostics
      return source
    }
    for entry in entries {
      switch entry.key {
      case Self.exportedKey:
        source.exported += declarations(entry, kind: .exported)
      case Self.importedKey:
        source.imported += declarations(entry, kind: .imported)
      case Self.documentTypesKey:
        for item in arrayItems(entry) {
          if let documentType = documentType(item) { source.documentTypes.append(documentType) }
        }
      case Self.packageTypeKey:
        source.bundlePackageType = string(entry)
      case "CFBundleIdentifier":
        source.bundleIdentifier = string(entry)
      case "LSMinimumSystemVersion":
        source.minimumSystemVersion = string(entry)
      case "MinimumOSVersion":
        source.minimumOSVersion = string(entry)
      default:
        continue
      }
    }
    source.diagnostics = diagnostics
    source.unresolvedVariables = unresolved
    return source
  }

  // MARK: Type declarations

  private mutating func declarations(
    _ entry: PropertyListValue.DictionaryEntry, kind: TypeDeclaration.Kind
  ) -> [TypeDeclaration] {
    arrayItems(entry).compactMap { declaration($0, kind: kind, arrayKey: entry.key) }
  }

  private mutating func declaration(
    _ value: PropertyListValue, kind: TypeDeclaration.Kind, arrayKey: String
  ) -> TypeDeclaration? {
    guard let entries = value.dictionaryEntries else {
      wrongType(value, expected: "a dict", key: "an item of \(arrayKey)")
      return nil
    }
    var identifier: Located<String>?
    var conformsTo: [Located<TypeIdentifier>] = []
    var tags: [TypeTag] = []
    var typeDescription: Located<String>?
    var iconFile: Located<String>?
    var iconFiles: [Located<String>] = []
    var icons: PropertyListValue?
    var referenceURL: Located<String>?
    var version: Located<String>?
    var otherKeys: [PropertyListValue.DictionaryEntry] = []

    for entry in entries {
      switch entry.key {
      case "UTTypeIdentifier":
        identifier = string(entry, interpreted: true)
      case "UTTypeConformsTo":
        conformsTo = stringOrStrings(entry, interpreted: true).map {
          Located(TypeIdentifier($0.value), location: $0.location)
        }
      case "UTTypeDescription":
        typeDescription = string(entry)
      case "UTTypeIconFile":
        iconFile = string(entry)
      case "UTTypeIconFiles":
        iconFiles = strings(entry, acceptSingle: true)
      case "UTTypeIcons":
        if entry.value.dictionaryEntries != nil {
          icons = entry.value
        } else {
          wrongType(entry.value, expected: "a dict", key: entry.key)
        }
      case "UTTypeReferenceURL":
        referenceURL = string(entry)
      case "UTTypeVersion":
        version = versionString(entry)
      case "UTTypeTagSpecification":
        tags = tagSpecification(entry)
      default:
        checkUnknown(entry, known: Self.declarationKeys, prefixes: ["UTType"])
        otherKeys.append(entry)
      }
    }

    guard let identifier else {
      if !entries.contains(where: { $0.key == "UTTypeIdentifier" }) {
        diagnostics.append(
          ValidationRule.missingIdentifier.diagnostic(
            "\(kind == .exported ? "exported" : "imported") type declaration has no UTTypeIdentifier",
            at: value.location,
            hint: "add <key>UTTypeIdentifier</key> with a reverse-DNS identifier"))
      }
      return nil
    }
    var declaration = TypeDeclaration(
      identifier: TypeIdentifier(identifier.value), kind: kind, location: value.location,
      sourceName: sourceName)
    declaration.identifierLocation = identifier.location
    declaration.conformances = conformsTo
    declaration.tags = tags
    declaration.typeDescription = typeDescription
    declaration.iconFile = iconFile
    declaration.iconFiles = iconFiles
    declaration.icons = icons
    declaration.referenceURL = referenceURL
    declaration.version = version
    declaration.otherKeys = otherKeys
    return declaration
  }

  private mutating func tagSpecification(_ entry: PropertyListValue.DictionaryEntry) -> [TypeTag] {
    guard let classes = entry.value.dictionaryEntries else {
      wrongType(entry.value, expected: "a dict", key: entry.key)
      return []
    }
    var tags: [TypeTag] = []
    for tagEntry in classes {
      let tagClass = TagClass(TypeIdentifier(tagEntry.key))
      let interpreted = [TagClass.filenameExtension, .mimeType, .osType].contains(tagClass)
      for tag in stringOrStrings(tagEntry, interpreted: interpreted) {
        tags.append(TypeTag(tagClass, tag.value, location: tag.location))
      }
    }
    return tags
  }

  private mutating func versionString(_ entry: PropertyListValue.DictionaryEntry) -> Located<
    String
  >? {
    switch entry.value.content {
    case .string:
      return string(entry)
    case .integer(let number):
      diagnostics.append(
        ValidationRule.wrongValueType.diagnostic(
          "UTTypeVersion should be a string, found integer", at: entry.value.location,
          hint: "write <string>\(number)</string>", severity: .warning))
      return Located(String(number), location: entry.value.location)
    case .real(let number):
      diagnostics.append(
        ValidationRule.wrongValueType.diagnostic(
          "UTTypeVersion should be a string, found real", at: entry.value.location,
          hint: "write <string>\(number)</string>", severity: .warning))
      return Located(String(number), location: entry.value.location)
    default:
      wrongType(entry.value, expected: "a string", key: entry.key)
      return nil
    }
  }

  // MARK: Document types

  private mutating func documentType(_ value: PropertyListValue) -> DocumentType? {
    guard let entries = value.dictionaryEntries else {
      wrongType(value, expected: "a dict", key: "an item of \(Self.documentTypesKey)")
      return nil
    }
    var documentType = DocumentType(location: value.location)
    for entry in entries {
      switch entry.key {
      case "CFBundleTypeName": documentType.name = string(entry)
      case "CFBundleTypeRole": documentType.role = string(entry, interpreted: true)
      case "LSHandlerRank": documentType.handlerRank = string(entry, interpreted: true)
      case "LSItemContentTypes":
        let contentTypes = strings(entry, acceptSingle: false, interpreted: true)
        documentType.contentTypeIdentifiers = contentTypes.map {
          Located(TypeIdentifier($0.value), location: $0.location)
        }
      case "LSTypeIsPackage": documentType.isPackage = boolean(entry)
      case "CFBundleTypeExtensions":
        documentType.extensions = strings(entry, acceptSingle: false, interpreted: true)
      case "CFBundleTypeMIMETypes":
        documentType.mimeTypes = strings(entry, acceptSingle: false, interpreted: true)
      case "CFBundleTypeOSTypes":
        documentType.osTypes = strings(entry, acceptSingle: false, interpreted: true)
      case "CFBundleTypeIconFile": documentType.iconFile = string(entry)
      case "NSDocumentClass": documentType.documentClass = string(entry)
      case "NSExportableTypes":
        documentType.exportableTypeIdentifiers = strings(entry, acceptSingle: false).map {
          Located(TypeIdentifier($0.value), location: $0.location)
        }
      default:
        checkUnknown(
          entry, known: Self.documentTypeKeys.union(Self.otherDocumentTypeKeys),
          prefixes: ["CFBundleType", "LSItem", "LSHandler", "LSTypeIs"])
        documentType.otherKeys.append(entry)
      }
    }
    return documentType
  }

  // MARK: Values

  private mutating func arrayItems(_ entry: PropertyListValue.DictionaryEntry)
    -> [PropertyListValue]
  {
    guard let items = entry.value.arrayValue else {
      wrongType(entry.value, expected: "an array", key: entry.key)
      return []
    }
    return items
  }

  /// A string value, with build variables substituted; unresolved ones are recorded when Folio
  /// checks the value (`interpreted`).
  private mutating func string(
    _ entry: PropertyListValue.DictionaryEntry, interpreted: Bool = false
  ) -> Located<String>? {
    guard let text = entry.value.stringValue else {
      wrongType(entry.value, expected: "a string", key: entry.key)
      return nil
    }
    return Located(
      substitute(text, key: entry.key, at: entry.value.location, interpreted: interpreted),
      location: entry.value.location)
  }

  /// A string or an array of strings (`UTTypeConformsTo`, tag values).
  private mutating func stringOrStrings(
    _ entry: PropertyListValue.DictionaryEntry, interpreted: Bool = false
  ) -> [Located<String>] {
    if entry.value.stringValue != nil {
      return string(entry, interpreted: interpreted).map { [$0] } ?? []
    }
    guard entry.value.arrayValue != nil else {
      wrongType(entry.value, expected: "a string or an array of strings", key: entry.key)
      return []
    }
    return strings(entry, acceptSingle: true, interpreted: interpreted)
  }

  /// An array of strings; a single string is accepted with a warning unless `acceptSingle`.
  private mutating func strings(
    _ entry: PropertyListValue.DictionaryEntry, acceptSingle: Bool, interpreted: Bool = false
  ) -> [Located<String>] {
    if let text = entry.value.stringValue {
      if !acceptSingle {
        diagnostics.append(
          ValidationRule.wrongValueType.diagnostic(
            "\(entry.key) should be an array of strings, found a single string",
            at: entry.value.location, hint: "wrap the value in <array>…</array>",
            severity: .warning))
      }
      return [
        Located(
          substitute(text, key: entry.key, at: entry.value.location, interpreted: interpreted),
          location: entry.value.location)
      ]
    }
    guard let items = entry.value.arrayValue else {
      wrongType(entry.value, expected: "an array of strings", key: entry.key)
      return []
    }
    var result: [Located<String>] = []
    for item in items {
      guard let text = item.stringValue else {
        wrongType(item, expected: "a string", key: "an item of \(entry.key)")
        continue
      }
      result.append(
        Located(
          substitute(text, key: entry.key, at: item.location, interpreted: interpreted),
          location: item.location))
    }
    return result
  }

  private mutating func boolean(_ entry: PropertyListValue.DictionaryEntry) -> Located<Bool>? {
    switch entry.value.content {
    case .boolean(let flag):
      return Located(flag, location: entry.value.location)
    case .integer(let number) where number == 0 || number == 1:
      diagnostics.append(
        ValidationRule.wrongValueType.diagnostic(
          "\(entry.key) should be a boolean, found integer \(number)", at: entry.value.location,
          hint: "write <\(number == 1 ? "true" : "false")/>", severity: .warning))
      return Located(number == 1, location: entry.value.location)
    default:
      wrongType(entry.value, expected: "a boolean", key: entry.key)
      return nil
    }
  }

  private mutating func substitute(
    _ text: String, key: String, at location: SourceLocation?, interpreted: Bool
  ) -> String {
    let result = variables.substitute(text)
    // `$(PRODUCT_BUNDLE_IDENTIFIER).ext` is how Xcode writes an app's own identifier; the
    // validator checks it with a placeholder, so it is not an unchecked value.
    let isBundleTemplate =
      Self.identifierKeys.contains(key)
      && BuildVariables.bundleIdentifierTemplate(result.text) != nil
    if interpreted && !result.unresolved.isEmpty && !isBundleTemplate {
      unresolved.append(
        .init(
          key: key, value: text, references: result.unresolved, names: result.unresolvedNames,
          location: location))
    }
    return result.text
  }

  private mutating func wrongType(_ value: PropertyListValue, expected: String, key: String) {
    diagnostics.append(
      ValidationRule.wrongValueType.diagnostic(
        "\(DiagnosticText.escaped(key)) should be \(expected), found \(value.kindName)",
        at: value.location,
        hint: "change the value to \(expected)"))
  }

  /// A key that looks like one of `known` but is not one, reported with the right spelling.
  ///
  /// Apple reads keys case-sensitively, so `UTTYpeReferenceURL` is ignored: both the prefix test
  /// and the suggestion fold case, and a key that differs from a known one only in case is
  /// told so.
  private mutating func checkUnknown(
    _ entry: PropertyListValue.DictionaryEntry, known: Set<String>, prefixes: [String]
  ) {
    let folded = entry.key.lowercased()
    guard prefixes.contains(where: { folded.hasPrefix($0.lowercased()) }),
      !known.contains(entry.key), !Self.legacyDeclarationKeys.contains(entry.key)
    else { return }
    var message = "unknown key \(DiagnosticText.quoted(entry.key)) is kept but not interpreted"
    var hint: String?
    if let sameLetters = known.union(Self.legacyDeclarationKeys).first(where: {
      $0.lowercased() == folded
    }) {
      message += " (keys are case-sensitive)"
      hint = "write \(sameLetters)"
    } else if let suggestion = known.min(by: {
      editDistance($0.lowercased(), folded) < editDistance($1.lowercased(), folded)
    }), editDistance(suggestion.lowercased(), folded) <= 3 {
      hint = "did you mean \(suggestion)?"
    }
    diagnostics.append(
      ValidationRule.unknownKey.diagnostic(
        message, at: entry.keyLocation ?? entry.value.location, hint: hint))
  }
}

/// The Levenshtein distance between two short strings, for "did you mean" hints.
package func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a.utf8)
  let b = Array(b.utf8)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}
