import PropertyLists

extension TypeRegistryBuilder {
  /// Adds the Linux desktop's types from a shared MIME database.
  ///
  /// Each MIME type becomes a type identifier: a system type's when one declares the MIME
  /// type or one of its aliases (or Folio's table maps the desktop's name to it, as
  /// `text/x-csrc` to `public.c-source`), otherwise one in the `org.freedesktop.mime` domain
  /// (`application/ld+json` is `org.freedesktop.mime.application.ld-plus-json`).
  /// A type both describe stays one type with the union of their tags; it keeps the system
  /// declaration's parents and description, and gains the desktop's translations, acronym
  /// and icon. A desktop-only type conforms to its `sub-class-of` types, to its media
  /// type's category (`image/…` to `public.image`, `audio/…` to `public.audio`, `video/…`
  /// to `public.movie`, `font/…` to `public.font`, `model/…` to `public.3d-content`), and
  /// by the specification's implicit rules to `public.plain-text` (`text/…`) or
  /// `public.data` when it names no parent (`public.item` for `inode/…`).
  ///
  /// Tags merged in this way rank after every declared tag. Globs with their weights and
  /// case rules, magic and root-XML rules drive ``TypeRegistry/identify(fileName:kind:)``
  /// and content identification.
  ///
  /// - Parameters:
  ///   - database: The loaded database (its diagnostics are not repeated here).
  ///   - languages: Language tags in order of preference, for descriptions (`de_DE`, `de`).
  public mutating func add(_ database: MIMEDatabase, languages: [String] = []) {
    hasDesktopDatabase = true
    sourceNames += database.sourceFiles
    let owners = systemMIMEOwners()
    let equivalents = desktopEquivalents
    let owner: (String) -> TypeIdentifier? = { name in
      let key = TypeIdentifier.foldCase(name)
      return owners[key] ?? equivalents[key]
    }
    // First the identifier each definition becomes, so parents can be mapped.
    var targets: [TypeIdentifier] = []
    var byName: [String: TypeIdentifier] = [:]
    for definition in database.types {
      let names = [definition.name] + definition.aliases.map(\.value)
      let target =
        names.lazy.compactMap(owner).first ?? TypeIdentifier.desktop(mimeType: definition.name)
      targets.append(target)
      for name in names { byName[TypeIdentifier.foldCase(name)] = target }
    }
    var created: [TypeIdentifier: String] = [:]
    // Room for every type at once: growing the table of entries (large values) one
    // rehash at a time was a tenth of this build.
    entries.reserveCapacity(entries.count + database.types.count)
    order.reserveCapacity(order.count + database.types.count)
    desktopTypes.reserveCapacity(desktopTypes.count + database.types.count)
    for (definition, target) in zip(database.types, targets) {
      desktopTypes.append((definition, target))
      let tags = Self.desktopTags(definition)
      if let kind = entries[target]?.stored.kind {
        let sourceName = entries[target]?.stored.sourceName
        if kind == .system, sourceName == nil || created[target] != nil {
          if let first = created[target] {
            diagnostics.append(
              Diagnostic(
                severity: .warning, code: MIMEDatabaseProblem.identifierCollision.rawValue,
                message:
                  "\(definition.name) and \(first) both become \(target); they are merged into one type",
                location: definition.location))
          }
          // In place: a copy out and back would copy the whole declaration.
          Self.merge(
            definition, tags: tags, languages: languages, into: &entries[target]!.declaration)
        }
        continue
      }
      var parents: [TypeIdentifier] = []
      func addParent(_ parent: TypeIdentifier) {
        if parent != target, !parents.contains(parent) { parents.append(parent) }
      }
      for parent in definition.parents {
        addParent(
          byName[TypeIdentifier.foldCase(parent.value)] ?? owner(parent.value)
            ?? TypeIdentifier.desktop(mimeType: parent.value))
      }
      let media = TypeIdentifier.foldCase(
        String(definition.name.prefix { $0 != "/" }))
      if let category = Self.mediaCategories[media] { addParent(category) }
      if definition.parents.isEmpty {
        if media == "text" {
          addParent(.plainText)
        } else {
          addParent(media == "inode" ? .item : .data)
        }
      }
      var declaration = TypeDeclaration(
        identifier: target, kind: .system, conformsTo: parents, tags: [],
        location: definition.location, sourceName: definition.location.file)
      Self.merge(definition, tags: tags, languages: languages, into: &declaration)
      insert(declaration, ownTagCount: 0)
      created[target] = definition.name
    }
  }

  /// The media types whose types all belong to one category of Apple's.
  private static let mediaCategories: [String: TypeIdentifier] = [
    "image": .image, "audio": .audio, "video": .movie, "font": .font,
    "model": "public.3d-content",
  ]

  /// A definition's tags: its MIME type and aliases, and the extensions of its simple
  /// case-insensitive `*.ext` globs (other globs act through name matching only).
  private static func desktopTags(_ definition: MIMETypeDefinition) -> [TypeTag] {
    var tags = [TypeTag(.mimeType, definition.name, location: definition.location)]
    tags += definition.aliases.map { TypeTag(.mimeType, $0.value, location: $0.location) }
    for glob in definition.globs where !glob.isCaseSensitive && glob.pattern.hasPrefix("*.") {
      let suffix = glob.pattern.dropFirst(2)
      guard !suffix.isEmpty, GlobPattern.Shape(glob.pattern) == .suffix else { continue }
      tags.append(TypeTag(.filenameExtension, String(suffix), location: glob.location))
    }
    return tags
  }

  /// Merges a definition into a declaration: tags it lacks, and what it does not say.
  private static func merge(
    _ definition: MIMETypeDefinition, tags: [TypeTag], languages: [String],
    into declaration: inout TypeDeclaration
  ) {
    struct Key: Hashable {
      var tagClass: TagClass
      var value: String
    }
    var keys = Set(declaration.tags.map { Key(tagClass: $0.tagClass, value: $0.lookupKey) })
    for tag in tags where keys.insert(Key(tagClass: tag.tagClass, value: tag.lookupKey)).inserted {
      declaration.tags.append(tag)
    }
    if declaration.typeDescription == nil,
      let text = definition.comment(preferring: languages) ?? definition.expandedAcronym
    {
      declaration.typeDescription = Located(text, location: definition.location)
    }
    // Most declarations have no translations of their own: share the definition's table
    // instead of rehashing its seventy-odd languages into an empty one.
    if declaration.localizedDescriptions.isEmpty {
      declaration.localizedDescriptions = definition.localizedComments
    } else {
      declaration.localizedDescriptions.merge(definition.localizedComments) { old, _ in old }
    }
    declaration.acronym = declaration.acronym ?? definition.acronym
    declaration.expandedAcronym = declaration.expandedAcronym ?? definition.expandedAcronym
    declaration.genericIconName = declaration.genericIconName ?? definition.genericIcon
    declaration.desktopDatabaseLocation =
      declaration.desktopDatabaseLocation ?? definition.location
  }

  /// Each MIME type a system type declares (folded) → the system type that ranks first.
  private func systemMIMEOwners() -> [String: TypeIdentifier] {
    var owners: [String: TypeIdentifier] = [:]
    // By identifier: this runs on the declarations, before any node exists.
    let entries = entries
    var data = AncestorCheck<TypeIdentifier>(
      isAncestor: { $0 == .data }, parents: { entries[$0]?.stored.parents ?? [] })
    func isData(_ identifier: TypeIdentifier) -> Bool { data.reaches(identifier) }
    for identifier in order {
      guard let entry = entries[identifier], entry.stored.kind == .system,
        entry.stored.sourceName == nil
      else { continue }
      for tag in entry.stored.tags.prefix(entry.ownTagCount) where tag.tagClass == .mimeType {
        let key = tag.lookupKey
        if let current = owners[key] {
          let new = systemSortKey(identifier, tag: key) { isData(identifier) }
          let old = systemSortKey(current, tag: key) { isData(current) }
          if new < old { owners[key] = identifier }
        } else {
          owners[key] = identifier
        }
      }
    }
    return owners
  }

  // MARK: Content rules

  /// Resolves the globs, magic and root-XML rules to nodes, once per build.
  ///
  /// - Parameters:
  ///   - nodes: The registry's nodes.
  ///   - index: Each identifier's node.
  ///   - tagIndex: Tag class → folded tag → candidates in lookup order.
  ///   - systemExtensionNodes: Each folded extension → the nodes of Apple's types that
  ///     declare it themselves (not merged in from the desktop).
  func makeContentRules(
    nodes: [TypeRegistry.Node], index: [TypeIdentifier: Int32],
    tagIndex: [TagClass: [String: [Int32]]], systemExtensionNodes: [String: Set<Int32>]
  ) -> ContentRules {
    var rules = ContentRules()
    rules.hasDesktopDatabase = hasDesktopDatabase
    func add(_ glob: ContentRules.Glob, shape: GlobPattern.Shape) {
      var glob = glob
      let position = rules.globs.count
      switch shape {
      case .literal:
        if glob.isCaseSensitive {
          rules.literals[glob.pattern, default: []].append(position)
        } else {
          rules.foldedLiterals[TypeIdentifier.foldCase(glob.pattern), default: []].append(position)
        }
      case .suffix:
        let suffix = String(glob.pattern.dropFirst())
        if glob.isCaseSensitive {
          rules.suffixes[suffix, default: []].append(position)
        } else {
          rules.foldedSuffixes[TypeIdentifier.foldCase(suffix), default: []].append(position)
        }
      case .wildcard:
        glob.compiled = GlobPattern(glob.pattern, caseSensitive: glob.isCaseSensitive)
        rules.wildcards.append(position)
      }
      rules.globs.append(glob)
    }

    // System types' extensions: for each, the first system type claiming it that is not a
    // folder type (what Apple's lookup answers for a file). With the desktop database loaded,
    // an extension it has no glob for weighs 40, below its default (see
    // TypeRegistry+Identification: the desktop is the authority on names here).
    var desktopPatterns: Set<String> = []
    for (definition, _) in desktopTypes {
      for glob in definition.globs { desktopPatterns.insert(TypeIdentifier.foldCase(glob.pattern)) }
    }
    var folders = AncestorCheck(nodes: nodes, ancestor: .directory)
    func isFolder(_ position: Int32) -> Bool { folders.reaches(position) }
    if let extensions = tagIndex[.filenameExtension] {
      for key in extensions.keys.sorted() {
        guard let owners = systemExtensionNodes[key] else { continue }
        let first = (extensions[key] ?? []).first { position in
          owners.contains(position) && !isFolder(position)
        }
        guard let position = first else { continue }
        let pattern = "*." + key
        let weight =
          !hasDesktopDatabase || desktopPatterns.contains(pattern) ? MIMEGlob.defaultWeight : 40
        add(
          ContentRules.Glob(
            pattern: pattern, weight: weight, isCaseSensitive: false, node: position,
            mimeType: nil, length: pattern.unicodeScalars.count),
          shape: GlobPattern.Shape(pattern) == .wildcard ? .wildcard : .suffix)
      }
    }

    // The shared MIME database.
    var maximumExtent = 0
    for (definition, identifier) in desktopTypes {
      guard let node = index[identifier] else { continue }
      rules.definitions[node, default: []].append(definition)
      for glob in definition.globs {
        add(
          ContentRules.Glob(
            pattern: glob.pattern, weight: glob.weight, isCaseSensitive: glob.isCaseSensitive,
            node: node, mimeType: definition.name, length: glob.pattern.unicodeScalars.count),
          shape: GlobPattern.Shape(glob.pattern))
      }
      for rule in definition.magic {
        rules.magic.append(ContentRules.Magic(rule: rule, node: node, mimeType: definition.name))
        maximumExtent = max(maximumExtent, rule.extent)
      }
      for rule in definition.rootXML {
        rules.rootXML.append(
          ContentRules.RootXML(rule: rule, node: node, mimeType: definition.name))
      }
    }
    rules.magic.sort {
      $0.rule.priority != $1.rule.priority
        ? $0.rule.priority > $1.rule.priority : ($0.mimeType ?? "") < ($1.mimeType ?? "")
    }
    for signature in BuiltInContentRules.signatures {
      guard let node = index[signature.identifier] else { continue }
      let match = MagicMatch(kind: .string, offset: signature.offset, value: signature.bytes)
      rules.magic.append(
        ContentRules.Magic(
          rule: MagicRule(priority: BuiltInContentRules.priority, matches: [match]), node: node,
          mimeType: nil))
      maximumExtent = max(maximumExtent, match.extent)
    }
    if let node = index[.xmlPropertyList] {
      rules.rootXML.append(
        ContentRules.RootXML(rule: BuiltInContentRules.propertyListRoot, node: node, mimeType: nil))
    }
    rules.suffixLengths = Set(
      rules.suffixes.keys.map(\.utf8.count) + rules.foldedSuffixes.keys.map(\.utf8.count)
    ).sorted(by: >)
    for key in [rules.suffixes.keys, rules.foldedSuffixes.keys].joined() {
      if let first = key.utf8.first { rules.suffixFirstBytes[Int(first)] = true }
    }
    // Enough for every rule, and for telling text from binary and finding an XML root.
    rules.readLength = max(4_096, maximumExtent)

    // The sub-class-of relation between nodes, with the specification's implicit rules.
    // A name means its own type before any other type's alias.
    var nodeByMIME: [String: Int32] = [:]
    for (definition, identifier) in desktopTypes {
      guard let node = index[identifier] else { continue }
      let key = TypeIdentifier.foldCase(definition.name)
      if nodeByMIME[key] == nil { nodeByMIME[key] = node }
    }
    for (definition, identifier) in desktopTypes {
      guard let node = index[identifier] else { continue }
      for alias in definition.aliases {
        let key = TypeIdentifier.foldCase(alias.value)
        if nodeByMIME[key] == nil { nodeByMIME[key] = node }
      }
    }
    let textPlain = nodeByMIME["text/plain"] ?? index[.plainText]
    let octetStream = nodeByMIME["application/octet-stream"] ?? index[.data]
    for (definition, identifier) in desktopTypes {
      guard let child = index[identifier] else { continue }
      var parents = rules.mimeParents[child] ?? []
      for parent in definition.parents {
        if let parentNode = nodeByMIME[TypeIdentifier.foldCase(parent.value)],
          parentNode != child, !parents.contains(parentNode)
        {
          parents.append(parentNode)
        }
      }
      let name = TypeIdentifier.foldCase(definition.name)
      if name.hasPrefix("text/"), let textPlain, textPlain != child, !parents.contains(textPlain) {
        parents.append(textPlain)
      }
      if !name.hasPrefix("inode/"), let octetStream, octetStream != child,
        !parents.contains(octetStream)
      {
        parents.append(octetStream)
      }
      rules.mimeParents[child] = parents
    }
    rules.plainText = textPlain
    rules.utf8PlainText = index[.utf8PlainText]
    rules.octetStream = octetStream
    rules.json = index[.json]
    return rules
  }
}
