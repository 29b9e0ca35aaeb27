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
  private struct Entry: Sendable {
    var declaration: TypeDeclaration
    /// Load order, to rank tag candidates.
    var sequence: Int
  }

  private var entries: [TypeIdentifier: Entry] = [:]
  private var order: [TypeIdentifier] = []
  private var sequence = 0
  private var sourceNames: [String] = []
  /// Conflicts found so far, in load order.
  public private(set) var diagnostics: [Diagnostic] = []

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
    for row in systemTypeTable {
      var tags = row.extensions.map { TypeTag(.filenameExtension, $0) }
      tags += row.mimeTypes.map { TypeTag(.mimeType, $0) }
      let declaration = TypeDeclaration(
        identifier: TypeIdentifier(row.identifier), kind: .system,
        conformsTo: row.conformsTo.map { TypeIdentifier($0) }, tags: tags,
        typeDescription: row.description)
      insert(declaration)
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
    guard let existing = entries[declaration.identifier] else {
      insert(declaration)
      return
    }
    let kept = existing.declaration
    let identifier = declaration.identifier
    switch (kept.kind, declaration.kind) {
    case (.system, _):
      diagnostics.append(
        ValidationRule.redeclaredSystemType.diagnostic(
          "\(identifier) is a system type; the declaration in \(declaration.sourceName ?? "a source") is ignored",
          at: declaration.identifierLocation ?? declaration.location,
          hint: "remove the declaration and use the system type"))
    case (.imported, .exported), (.imported, .system):
      entries[identifier] = Entry(declaration: declaration, sequence: nextSequence())
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
    // Nodes: declared types in load order, then parents declared nowhere.
    var nodes: [TypeRegistry.Node] = []
    var index: [TypeIdentifier: Int32] = [:]
    for identifier in order {
      guard let entry = entries[identifier] else { continue }
      index[identifier] = Int32(nodes.count)
      nodes.append(
        .init(identifier: entry.declaration.identifier, declaration: entry.declaration, parents: [])
      )
    }
    let declaredCount = nodes.count
    for position in 0..<declaredCount {
      guard let declaration = nodes[position].declaration else { continue }
      var parents: [Int32] = []
      for parent in declaration.parents {
        if index[parent] == nil {
          index[parent] = Int32(nodes.count)
          nodes.append(.init(identifier: parent, declaration: nil, parents: []))
        }
        if let parentIndex = index[parent], !parents.contains(parentIndex) {
          parents.append(parentIndex)
        }
      }
      nodes[position].parents = parents
    }

    // Tags: user exported, user imported, then system; each group in load order.
    var sortKeys: [(rank: Int, sequence: Int)] = []
    sortKeys.reserveCapacity(declaredCount)
    for position in 0..<declaredCount {
      let declaration = nodes[position].declaration
      let rank =
        switch declaration?.kind {
        case .exported: 0
        case .imported: 1
        case .system: 2
        case nil: 3
        }
      sortKeys.append((rank, entries[nodes[position].identifier]?.sequence ?? 0))
    }
    let ranked = (0..<declaredCount).sorted { sortKeys[$0] < sortKeys[$1] }
    var tagIndex: [TagClass: [String: [Int32]]] = [:]
    for position in ranked {
      guard let declaration = nodes[position].declaration else { continue }
      for tag in declaration.tags {
        var classIndex = tagIndex.removeValue(forKey: tag.tagClass) ?? [:]
        Self.appendOnce(Int32(position), to: &classIndex[tag.lookupKey, default: []])
        tagIndex[tag.tagClass] = classIndex
      }
    }
    return TypeRegistry(nodes: nodes, sourceNames: sourceNames, tagIndex: tagIndex)
  }

  /// Appends a candidate unless it is already the last one (a tag repeated in one declaration).
  private static func appendOnce(_ position: Int32, to candidates: inout [Int32]) {
    if candidates.last != position { candidates.append(position) }
  }

  private mutating func insert(_ declaration: TypeDeclaration) {
    entries[declaration.identifier] = Entry(declaration: declaration, sequence: nextSequence())
    order.append(declaration.identifier)
  }

  private mutating func nextSequence() -> Int {
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
