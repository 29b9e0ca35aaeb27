import FolioSystem
public import PropertyLists

/// Collects declarations from sources and builds an immutable ``TypeRegistry``.
///
/// Which declaration is in effect for an identifier:
/// - a system type keeps its system declaration; a file that redeclares it
///   gets a `redeclared-system-type` warning;
/// - an exported declaration wins over an imported one, from any source;
/// - between two declarations of the same kind, the first one loaded wins; a
///   later one that differs gets a `conflicting-declaration` warning (or
///   `duplicate-identifier` when both are in the same file), never a silent
///   override.
///
/// Only the declaration in effect contributes tags.
public struct TypeRegistryBuilder: Sendable {
  struct Entry: Sendable {
    /// The declaration, held once however many builders and registries share it.
    var stored: SharedDeclaration
    /// Load order, to rank tag candidates.
    var sequence: Int
    /// How many of the declaration's tags are its own; the rest were merged in from the
    /// shared MIME database and rank after every declared tag.
    var ownTagCount: Int

    init(declaration: TypeDeclaration, sequence: Int, ownTagCount: Int) {
      self.init(
        stored: SharedDeclaration(declaration), sequence: sequence, ownTagCount: ownTagCount)
    }

    init(stored: SharedDeclaration, sequence: Int, ownTagCount: Int) {
      self.stored = stored
      self.sequence = sequence
      self.ownTagCount = ownTagCount
    }

    /// The declaration; setting it stores a new one, leaving registries built earlier as they were.
    var declaration: TypeDeclaration {
      get { stored.value }
      set { stored = SharedDeclaration(newValue) }
    }
  }

  var entries: [TypeIdentifier: Entry] = [:]
  var order: [TypeIdentifier] = []
  private var sequence = 0
  var sourceNames: [String] = []
  /// How each system type ranks for a tag several system types claim.
  var systemRanking: [TypeIdentifier: SystemRanking] = [:]
  /// shared-mime-info names that denote a system type Apple lists under other MIME types.
  var desktopEquivalents: [String: TypeIdentifier] = [:]
  /// The shared MIME database's types added, each with the identifier it became.
  var desktopTypes: [(definition: MIMETypeDefinition, identifier: TypeIdentifier)] = []
  /// Whether a shared MIME database was added (even an empty one).
  var hasDesktopDatabase = false
  /// Conflicts found so far, in load order.
  public internal(set) var diagnostics: [Diagnostic] = []

  /// Creates a builder.
  ///
  /// - Parameter includingSystemTypes: Whether to start from Folio's compiled-in
  ///   system types (normally yes; tests may start empty).
  public init(includingSystemTypes: Bool = true) {
    if includingSystemTypes { self = Self.systemBase }
  }

  /// A builder holding the system types, made once and copied (copy-on-write) by every builder.
  private static let systemBase: TypeRegistryBuilder = {
    var builder = TypeRegistryBuilder(includingSystemTypes: false)
    builder.addSystemTypes()
    return builder
  }()

  private mutating func addSystemTypes() {
    entries.reserveCapacity(SystemTypeTable.count)
    order.reserveCapacity(SystemTypeTable.count)
    for index in 0..<SystemTypeTable.count {
      SystemTypeTable.withRow(index) { row in
        let identifier = TypeIdentifier(row.text(.identifier))
        // Each entry points at its row; the declaration is built only when asked for.
        entries[identifier] = Entry(
          stored: SharedDeclaration(systemRow: index, identifier: identifier),
          sequence: nextSequence(),
          ownTagCount: row.itemCount(.extensions) + row.itemCount(.mimeTypes))
        order.append(identifier)
        // Only rankings that differ from the default (exported, preferred for nothing).
        let isImported = row.column(.declaration, is: "imported")
        let preferredFor = row.items(.preferredFor)
        if isImported || !preferredFor.isEmpty {
          systemRanking[identifier] = SystemRanking(
            isImported: isImported, preferredFor: Set(preferredFor.map(TypeIdentifier.foldCase)))
        }
        for mimeType in row.items(.desktopMIMETypes) {
          desktopEquivalents[TypeIdentifier.foldCase(mimeType)] = identifier
        }
      }
    }
  }

  /// Adds every declaration of a source, exported first.
  ///
  /// - Parameter source: The decoded file.
  public mutating func add(_ source: DeclarationSource) {
    sourceNames.append(source.name)
    for declaration in source.exported { add(declaration) }
    for declaration in source.imported { add(declaration) }
  }

  /// Adds one declaration.
  ///
  /// - Parameter declaration: The declaration; its ``TypeDeclaration/kind`` decides precedence.
  public mutating func add(_ declaration: TypeDeclaration) {
    guard let existing = entries[declaration.typeIdentifier] else {
      insert(declaration)
      return
    }
    let kept = existing.declaration
    let identifier = declaration.typeIdentifier
    switch (kept.kind, declaration.kind) {
    case (.system, _):
      diagnostics.append(
        ValidationRule.redeclaredSystemType.diagnostic(
          "\(identifier) is a system type; the declaration in \(declaration.sourceName ?? "a source") is ignored",
          at: declaration.identifierLocation ?? declaration.location,
          hint: "remove the declaration and use the system type"))
    case (.imported, .exported), (.imported, .system):
      entries[identifier] = Entry(
        declaration: declaration, sequence: nextSequence(), ownTagCount: declaration.tags.count)
    case (.exported, .imported), (.exported, .system):
      break
    default:
      let sameFile = kept.sourceName == declaration.sourceName
      if sameFile {
        diagnostics.append(
          ValidationRule.duplicateIdentifier.diagnostic(
            "\(identifier) is declared again; the first declaration is kept",
            at: declaration.identifierLocation ?? declaration.location,
            hint: "remove one of the declarations"))
      } else if !Self.sameMeaning(kept, declaration) {
        diagnostics.append(
          ValidationRule.conflictingDeclaration.diagnostic(
            "\(identifier) is already declared in \(kept.sourceName ?? "another source") with different conformance or tags; that declaration is kept",
            at: declaration.identifierLocation ?? declaration.location,
            hint: "declare each type in one place"))
      }
    }
  }

  /// Builds the registry.
  ///
  /// - Returns: An immutable registry with its conformance closure precomputed.
  public func build() -> TypeRegistry {
    TypeRegistry(tables: PendingValue(makeTables()))
  }

  /// The tables of the registry ``build()`` makes.
  func makeTables() -> TypeRegistryTables {
    // Nodes: declared types in load order, then parents declared nowhere.
    var nodes: [TypeRegistry.Node] = []
    var index: [TypeIdentifier: Int32] = [:]
    // What the tag passes need of each entry, read once: looking an entry up again copies
    // its whole declaration (a retain for every string in it).
    var sortKeys: [(rank: Int, sequence: Int)] = []
    var ownTagCounts: [Int] = []
    nodes.reserveCapacity(order.count + 64)
    index.reserveCapacity(order.count + 64)
    sortKeys.reserveCapacity(order.count)
    ownTagCounts.reserveCapacity(order.count)
    for identifier in order {
      guard let entry = entries[identifier] else { continue }
      index[identifier] = Int32(nodes.count)
      nodes.append(
        .init(identifier: entry.stored.identifier, storedDeclaration: entry.stored, parents: []))
      let rank =
        switch entry.stored.kind {
        case .exported: 0
        case .imported: 1
        case .system: 2
        }
      sortKeys.append((rank, entry.sequence))
      ownTagCounts.append(entry.ownTagCount)
    }
    let declaredCount = nodes.count
    for position in 0..<declaredCount {
      guard let stored = nodes[position].storedDeclaration else { continue }
      var parents: [Int32] = []
      for parent in stored.parents {
        if index[parent] == nil {
          index[parent] = Int32(nodes.count)
          nodes.append(.init(identifier: parent, storedDeclaration: nil, parents: []))
        }
        if let parentIndex = index[parent], !parents.contains(parentIndex) {
          parents.append(parentIndex)
        }
      }
      nodes[position].parents = parents
    }

    // Tags: user exported, user imported, then system; each group in load order.
    let ranked = (0..<declaredCount).sorted { sortKeys[$0] < sortKeys[$1] }
    // Each declaration's own tags first, ranked; tags merged in from the shared MIME
    // database after every declared one, so the desktop never outranks a declaration.
    var tagIndex: [TagClass: [String: [Int32]]] = [:]
    // The extensions Apple's types declare themselves (not merged in from the desktop), for
    // the content rules: gathered here, where each row's tags are read anyway.
    var systemExtensionNodes: [String: Set<Int32>] = [:]
    for pass in 0..<2 {
      for position in ranked {
        guard let stored = nodes[position].storedDeclaration else { continue }
        // An unchanged system row has no merged tags: the second pass need not read it.
        if pass == 1 && stored.isSystemRow { continue }
        let tags = stored.tags
        let own = ownTagCounts[position]
        let isApple = pass == 0 && stored.kind == .system && stored.sourceName == nil
        for tag in pass == 0 ? tags.prefix(own) : tags.dropFirst(own) {
          let key = tag.lookupKey
          Self.appendOnce(
            Int32(position), to: &tagIndex[tag.tagClass, default: [:]][key, default: []])
          if isApple && tag.tagClass == .filenameExtension {
            systemExtensionNodes[key, default: []].insert(Int32(position))
          }
        }
      }
      if pass == 0 { rankSystemCandidates(in: &tagIndex, nodes: nodes) }
    }
    let content = makeContentRules(
      nodes: nodes, index: index, tagIndex: tagIndex, systemExtensionNodes: systemExtensionNodes)
    return TypeRegistryTables(
      nodes: nodes, sourceNames: sourceNames, tagIndex: tagIndex, contentRules: content)
  }

  /// How a system type ranks among system types claiming the same tag.
  struct SystemRanking: Sendable {
    /// Imported by the system (someone else owns the type).
    var isImported: Bool
    /// Folded tags for which the table names this type the first answer.
    var preferredFor: Set<String>
  }

  /// Orders the system types claiming each tag as the table's header describes.
  ///
  /// The type preferred for the tag, the declaring type over importers, `public.` types,
  /// types conforming to `public.data`, then table order. User-declared candidates stay first.
  private func rankSystemCandidates(
    in tagIndex: inout [TagClass: [String: [Int32]]], nodes: [TypeRegistry.Node]
  ) {
    var data = AncestorCheck(nodes: nodes, ancestor: .data)
    func isData(_ position: Int32) -> Bool { data.reaches(position) }
    for tagClass in Array(tagIndex.keys) {
      guard var classIndex = tagIndex[tagClass] else { continue }
      var changed = false
      for (key, candidates) in classIndex where candidates.count > 1 {
        let systemStart =
          candidates.firstIndex { nodes[Int($0)].kind == .system } ?? candidates.count
        let system = Array(candidates[systemStart...])
        guard system.count > 1 else { continue }
        let ranked = system.enumerated().sorted { a, b in
          let left = systemSortKey(nodes[Int(a.element)].identifier, tag: key) { isData(a.element) }
          let right = systemSortKey(nodes[Int(b.element)].identifier, tag: key) {
            isData(b.element)
          }
          return left != right ? left < right : a.offset < b.offset
        }.map(\.element)
        if ranked != system {
          classIndex[key] = Array(candidates[..<systemStart]) + ranked
          changed = true
        }
      }
      if changed { tagIndex[tagClass] = classIndex }
    }
  }

  /// The ranking key of one system type claiming a tag; smaller ranks first.
  ///
  /// - Parameters:
  ///   - identifier: The system type.
  ///   - tag: The folded tag.
  ///   - isData: Whether the type conforms to `public.data` (asked only on a tie before it).
  func systemSortKey(_ identifier: TypeIdentifier, tag: String, isData: () -> Bool) -> (
    Int, Int, Int, Int
  ) {
    let ranking = systemRanking[identifier]
    return (
      ranking?.preferredFor.contains(tag) == true ? 0 : 1,
      ranking?.isImported == true ? 1 : 0,
      identifier.key.hasPrefix("public.") ? 0 : 1,
      isData() ? 0 : 1
    )
  }

  /// Appends a candidate unless it is already there (a tag repeated in one declaration).
  private static func appendOnce(_ position: Int32, to candidates: inout [Int32]) {
    if !candidates.contains(position) { candidates.append(position) }
  }

  mutating func insert(_ declaration: TypeDeclaration, ownTagCount: Int? = nil) {
    entries[declaration.typeIdentifier] = Entry(
      declaration: declaration, sequence: nextSequence(),
      ownTagCount: ownTagCount ?? declaration.tags.count)
    order.append(declaration.typeIdentifier)
  }

  mutating func nextSequence() -> Int {
    sequence += 1
    return sequence
  }

  private static func sameMeaning(_ a: TypeDeclaration, _ b: TypeDeclaration) -> Bool {
    Set(a.parents) == Set(b.parents)
      && Set(a.tags.map { "\($0.tagClass)=\($0.lookupKey)" })
        == Set(b.tags.map { "\($0.tagClass)=\($0.lookupKey)" })
  }
}

extension TypeRegistry {
  /// Builds a registry from the system types and some sources.
  ///
  /// Conflicts are resolved as ``TypeRegistryBuilder`` documents; use the
  /// builder directly to see them.
  ///
  /// - Parameter sources: Decoded declaration files, in load order.
  public init(loading sources: [DeclarationSource]) {
    var builder = TypeRegistryBuilder()
    for source in sources { builder.add(source) }
    self = builder.build()
  }
}
