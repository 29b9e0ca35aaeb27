extension TypeRegistry {
  /// Every type claiming a tag, in the registry's lookup order.
  ///
  /// - Parameters:
  ///   - tag: The tag; compared case-insensitively except for OSTypes.
  ///   - tagClass: The tag's class.
  /// - Returns: The candidates, best first; empty when no type claims the tag.
  public func types(forTag tag: String, tagClass: UTTagClass) -> [UTType] {
    identifiers(forTag: tag, tagClass: tagClass.tagClass).map { UTType(resolved: $0) }
  }

  /// The identifiers of every type claiming a tag, in lookup order.
  package func identifiers(forTag tag: String, tagClass: TagClass) -> [TypeIdentifier] {
    let key = tagClass.isCaseInsensitive ? TypeIdentifier.foldCase(tag) : tag
    guard let candidates = tagIndex[tagClass]?[key] else { return [] }
    return candidates.map { nodes[Int($0)].identifier }
  }

  /// Every type claiming a filename extension, best first.
  ///
  /// - Parameter filenameExtension: The extension, with or without a leading dot
  ///   (`md`, `.md`, `tar.gz`), in any letter case.
  /// - Returns: The candidates in lookup order.
  public func types(forFilenameExtension filenameExtension: String) -> [UTType] {
    identifiers(forFilenameExtension: filenameExtension).map { UTType(resolved: $0) }
  }

  /// The identifiers of every type claiming a filename extension, best first.
  package func identifiers(forFilenameExtension filenameExtension: String) -> [TypeIdentifier] {
    identifiers(forTag: Self.stripDot(filenameExtension), tagClass: .filenameExtension)
  }

  /// The best type for a filename extension.
  ///
  /// - Parameter filenameExtension: The extension, with or without a leading dot.
  /// - Returns: The first candidate in lookup order, or `nil` when no type claims it
  ///   (``identify(fileName:kind:)`` gives a dynamic type instead).
  public func type(forFilenameExtension filenameExtension: String) -> UTType? {
    identifier(forFilenameExtension: filenameExtension).map { UTType(resolved: $0) }
  }

  /// The identifier of the best type for a filename extension, or `nil` when none claims it.
  package func identifier(forFilenameExtension filenameExtension: String) -> TypeIdentifier? {
    let key = TypeIdentifier.foldCase(Self.stripDot(filenameExtension))
    guard let first = extensionIndex[key]?.first else { return nil }
    return nodes[Int(first)].identifier
  }

  /// Every type claiming a MIME type, best first.
  ///
  /// Parameters are kept when a type declares them (`text/plain;charset=utf-8` is UTF-8
  /// plain text); otherwise the bare `type/subtype` is looked up.
  ///
  /// - Parameter mimeType: The MIME type, in any letter case.
  /// - Returns: The candidates in lookup order.
  public func types(forMIMEType mimeType: String) -> [UTType] {
    identifiers(forMIMEType: mimeType).map { UTType(resolved: $0) }
  }

  /// The identifiers of every type claiming a MIME type, best first.
  package func identifiers(forMIMEType mimeType: String) -> [TypeIdentifier] {
    let normalized = Self.normalizeMIMEType(mimeType)
    let exact = identifiers(forTag: normalized, tagClass: .mimeType)
    if !exact.isEmpty { return exact }
    guard let semicolon = normalized.firstIndex(of: ";") else { return [] }
    return identifiers(forTag: String(normalized[..<semicolon]), tagClass: .mimeType)
  }

  /// The best type for a MIME type.
  ///
  /// - Parameter mimeType: The MIME type.
  /// - Returns: The first candidate, or `nil` when no type claims it.
  public func type(forMIMEType mimeType: String) -> UTType? {
    identifier(forMIMEType: mimeType).map { UTType(resolved: $0) }
  }

  /// The identifier of the best type for a MIME type.
  package func identifier(forMIMEType mimeType: String) -> TypeIdentifier? {
    identifiers(forMIMEType: mimeType).first
  }

  /// A type's preferred tag of a class.
  ///
  /// The preferred tag is the first one the type declares. A type that declares none
  /// inherits the first one of its supertypes, depth-first in declared order (as Apple's
  /// frameworks look up properties), except from `public.data` and `public.item`, whose
  /// `application/octet-stream` means "unknown", not a preference.
  ///
  /// - Parameters:
  ///   - tagClass: The tag class.
  ///   - type: The type.
  /// - Returns: The tag, or `nil` when neither the type nor its supertypes declare one.
  public func preferredTag(_ tagClass: UTTagClass, for type: UTType) -> String? {
    preferredTag(tagClass.tagClass, for: type.typeIdentifier)
  }

  /// A type's preferred tag of a class, by the rules of ``preferredTag(_:for:)``.
  package func preferredTag(_ tagClass: TagClass, for type: TypeIdentifier) -> String? {
    if let own = declaredTags(of: type).first(where: { $0.tagClass == tagClass }) {
      return own.value
    }
    if let tag = type.dynamicSpecification?.tags.first(where: { $0.tagClass == tagClass }) {
      return tag.value
    }
    for parent in supertypes(of: type) where parent != .data && parent != .item {
      if let tag = declaredTags(of: parent).first(where: { $0.tagClass == tagClass }) {
        return tag.value
      }
    }
    return nil
  }

  /// A type's preferred filename extension, without the dot.
  ///
  /// - Parameter type: The type.
  /// - Returns: The extension (`txt` for ``UTType/utf8PlainText``), or `nil`.
  public func preferredFilenameExtension(for type: UTType) -> String? {
    preferredFilenameExtension(for: type.typeIdentifier)
  }

  /// A type's preferred filename extension, without the dot.
  package func preferredFilenameExtension(for type: TypeIdentifier) -> String? {
    preferredTag(.filenameExtension, for: type)
  }

  /// A type's preferred MIME type.
  ///
  /// - Parameter type: The type.
  /// - Returns: The MIME type, or `nil`.
  public func preferredMIMEType(for type: UTType) -> String? {
    preferredMIMEType(for: type.typeIdentifier)
  }

  /// A type's preferred MIME type.
  package func preferredMIMEType(for type: TypeIdentifier) -> String? {
    preferredTag(.mimeType, for: type)
  }

  /// Resolves what a user typed for a type: an identifier, an extension or a MIME type.
  ///
  /// In order: a declared identifier (`public.json`), a MIME type when the text has a `/`
  /// (`application/json`), a filename extension with or without its dot (`json`,
  /// `.tar.gz`), and a decodable dynamic identifier.
  ///
  /// - Parameter text: The text.
  /// - Returns: The type, or `nil` when nothing matches.
  public func resolve(_ text: String) -> UTType? {
    identifier(resolving: text).map { UTType(resolved: $0) }
  }

  /// The identifier of what a user typed for a type, by the rules of ``resolve(_:)``.
  package func identifier(resolving text: String) -> TypeIdentifier? {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty else { return nil }
    if let declared = declaredIdentifier(for: TypeIdentifier(trimmed)) { return declared }
    if trimmed.contains("/") { return identifier(forMIMEType: trimmed) }
    if let byExtension = identifier(forFilenameExtension: trimmed) { return byExtension }
    let identifier = TypeIdentifier(trimmed)
    if identifier.isDynamic, identifier.dynamicSpecification != nil { return identifier }
    return nil
  }

  static func stripDot(_ filenameExtension: String) -> String {
    filenameExtension.hasPrefix(".") ? String(filenameExtension.dropFirst()) : filenameExtension
  }

  static func normalizeMIMEType(_ mimeType: String) -> String {
    let parts = mimeType.split(separator: ";", omittingEmptySubsequences: false).map {
      String($0).trimmingWhitespace()
    }
    return TypeIdentifier.foldCase(parts.joined(separator: ";"))
  }
}

extension String {
  /// The string without leading and trailing spaces, tabs and newlines.
  package func trimmingWhitespace() -> String {
    // On the bytes, not the characters: "\r\n" is one Character equal to neither.
    let isSpace: (UInt8) -> Bool = {
      $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n")
        || $0 == UInt8(ascii: "\r")
    }
    guard let first = utf8.firstIndex(where: { !isSpace($0) }),
      let last = utf8.lastIndex(where: { !isSpace($0) })
    else { return "" }
    if first == utf8.startIndex && utf8.index(after: last) == utf8.endIndex { return self }
    return String(decoding: utf8[first...last], as: UTF8.self)
  }
}
