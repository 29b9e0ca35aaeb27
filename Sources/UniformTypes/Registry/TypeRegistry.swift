import FolioSystem

/// Every type Folio knows, with their conformance and tags, answering what
/// Apple's Uniform Type Identifiers answer.
///
/// A registry is an immutable value, built once by ``TypeRegistryBuilder``
/// (or ``TypeRegistry/system`` for the compiled-in system types alone) and
/// then shared freely between threads. Building precomputes the transitive
/// conformance closure as a bit matrix, so ``conforms(_:to:)`` is two hash
/// lookups and a bit test; it never walks the graph.
///
/// ## Lookup order for tags
///
/// When several types claim one tag (an extension, a MIME type), candidates
/// come in this order:
/// 1. types declared by the files being validated or loaded by the user,
///    exported before imported, each in load order;
/// 2. system types, in the order of Folio's system table (which puts the
///    type macOS returns first: `plist` is `com.apple.property-list`).
///
/// Apple calls the choice between equally ranked claimants "undefined"; Folio
/// makes it stable. ``type(forFilenameExtension:)`` returns the first
/// candidate.
public struct TypeRegistry: Sendable {
  /// One node of the conformance graph: a declared type, or an identifier
  /// named as a parent and declared nowhere.
  package struct Node: Sendable {
    package var identifier: TypeIdentifier
    /// The declaration, shared with the builder that made the registry.
    var storedDeclaration: SharedDeclaration?
    var parents: [Int32]

    package var declaration: TypeDeclaration? { storedDeclaration?.value }
    /// How the type is declared, without building its declaration; `nil` when undeclared.
    package var kind: TypeDeclaration.Kind? { storedDeclaration?.kind }
    /// Whether a declaration is in effect.
    package var isDeclared: Bool { storedDeclaration != nil }
  }

  /// The tables every question reads: built with the registry, or on a thread of their own
  /// while the caller goes on (``TypeRegistry/loadingInBackground(declarationDirectories:)``).
  private let pendingTables: PendingValue<TypeRegistryTables>

  /// The tables, waiting for them while they are being built.
  var tables: TypeRegistryTables { pendingTables.value }
  /// The names of the sources loaded, in load order.
  public var sourceNames: [String] { tables.sourceNames }
  package var nodes: [Node] { tables.nodes }
  var indexByIdentifier: [TypeIdentifier: Int32] { tables.indexByIdentifier }
  /// Row `i` holds bit `j` when node `i` conforms to node `j` (reflexive, transitive).
  var closure: [UInt64] { tables.closure }
  var wordsPerRow: Int { tables.wordsPerRow }
  /// Supertypes of each node, depth-first in declared order, without the node itself.
  var orderedSupertypes: [[Int32]] { tables.orderedSupertypes }
  /// Tag class → folded tag → candidates in lookup order.
  var tagIndex: [TagClass: [String: [Int32]]] { tables.tagIndex }
  /// The filename-extension part of `tagIndex`, for the hot path.
  var extensionIndex: [String: [Int32]] { tables.extensionIndex }
  /// Globs, magic and root-XML rules for identification by name and content.
  var contentRules: ContentRules { tables.contentRules }

  /// A registry answering from tables built, or being built (``TypeRegistryBuilder``).
  init(tables: PendingValue<TypeRegistryTables>) {
    pendingTables = tables
  }

  /// The compiled-in system types alone.
  public static let system: TypeRegistry = TypeRegistryBuilder().build()

  // MARK: Declarations

  /// The declaration in effect for a type.
  ///
  /// - Parameter type: The type.
  /// - Returns: The declaration, or `nil` when the type is declared nowhere.
  public func declaration(for type: UTType) -> TypeDeclaration? {
    declaration(for: type.typeIdentifier)
  }

  /// The declaration in effect for an identifier, in any letter case.
  package func declaration(for identifier: TypeIdentifier) -> TypeDeclaration? {
    guard let position = indexByIdentifier[identifier] else { return nil }
    return nodes[Int(position)].declaration
  }

  /// The type with an identifier this registry declares, as `UTType(_:)` finds one in the
  /// process's registry.
  ///
  /// - Parameter identifier: The identifier, in any letter case.
  /// - Returns: The type, spelled as its declaration spells it; `nil` when the registry
  ///   declares no such type and the identifier is not a dynamic one Folio can decode.
  public func type(withIdentifier identifier: String) -> UTType? {
    let candidate = TypeIdentifier(identifier)
    if let declared = declaredIdentifier(for: candidate) { return UTType(resolved: declared) }
    guard candidate.isDynamic, candidate.dynamicSpecification != nil else { return nil }
    return UTType(resolved: candidate)
  }

  /// The identifier as the declaration in effect spells it, without building the declaration.
  ///
  /// - Parameter identifier: The identifier, in any letter case.
  /// - Returns: The declared spelling, or `nil` when the type is declared nowhere.
  func declaredIdentifier(for identifier: TypeIdentifier) -> TypeIdentifier? {
    guard let position = indexByIdentifier[identifier] else { return nil }
    return nodes[Int(position)].storedDeclaration?.identifier
  }

  /// The tags the declaration in effect gives a type, without building the declaration.
  ///
  /// - Parameter identifier: The identifier, in any letter case.
  /// - Returns: The tags in declared order; empty when the type is declared nowhere.
  func declaredTags(of identifier: TypeIdentifier) -> [TypeTag] {
    guard let position = indexByIdentifier[identifier] else { return [] }
    return nodes[Int(position)].storedDeclaration?.tags ?? []
  }

  /// How the declaration in effect declares a type, without building the declaration.
  ///
  /// - Parameter identifier: The identifier, in any letter case.
  /// - Returns: The kind, or `nil` when the type is declared nowhere.
  package func declarationKind(of identifier: TypeIdentifier) -> TypeDeclaration.Kind? {
    guard let position = indexByIdentifier[identifier] else { return nil }
    return nodes[Int(position)].kind
  }

  /// Whether a type is declared (by the system or a loaded source).
  ///
  /// - Parameter type: The type.
  /// - Returns: `true` when a declaration is in effect.
  public func isDeclared(_ type: UTType) -> Bool {
    isDeclared(type.typeIdentifier)
  }

  /// Whether an identifier is declared (by the system or a loaded source).
  package func isDeclared(_ identifier: TypeIdentifier) -> Bool {
    guard let position = indexByIdentifier[identifier] else { return false }
    return nodes[Int(position)].isDeclared
  }

  /// Every declaration in effect, sorted by identifier.
  public var declarations: [TypeDeclaration] {
    nodes.compactMap(\.declaration).sorted { $0.typeIdentifier < $1.typeIdentifier }
  }

  /// Identifiers named as parents somewhere but declared nowhere, sorted.
  package var undeclaredIdentifiers: [TypeIdentifier] {
    nodes.filter { !$0.isDeclared }.map(\.identifier).sorted()
  }

  // MARK: Conformance

  /// Whether one type conforms to another.
  ///
  /// Conformance is reflexive (every type conforms to itself), transitive, and safe with
  /// cycles. A dynamic type conforms to the parents its identifier encodes. The answer
  /// comes from a precomputed closure, and it is this registry's: a `UTType` stands for its
  /// identifier only.
  ///
  /// - Parameters:
  ///   - type: The type asked about.
  ///   - parent: The type it may conform to.
  /// - Returns: `true` when `type` is `parent` or a descendant of it.
  public func conforms(_ type: UTType, to parent: UTType) -> Bool {
    conforms(type.typeIdentifier, to: parent.typeIdentifier)
  }

  /// Whether one identifier's type conforms to another's, by the rules of ``conforms(_:to:)``.
  package func conforms(_ type: TypeIdentifier, to parent: TypeIdentifier) -> Bool {
    if type == parent { return true }
    guard let row = indexByIdentifier[type] else {
      guard let specification = type.dynamicSpecification else { return false }
      return specification.parents.contains { conforms($0, to: parent) }
    }
    guard let column = indexByIdentifier[parent] else { return false }
    return conforms(row, column)
  }

  /// Whether node `row` conforms to node `column`, from the closure.
  func conforms(_ row: Int32, _ column: Int32) -> Bool {
    closure[Int(row) * wordsPerRow + Int(column) >> 6] & (1 << UInt64(column & 63)) != 0
  }

  /// The candidates for a filename extension (with or without its dot), in lookup order.
  func extensionCandidates(_ filenameExtension: String) -> [Int32] {
    extensionIndex[TypeIdentifier.foldCase(Self.stripDot(filenameExtension))] ?? []
  }

  /// Every type a type conforms to, nearest first (depth-first in declared order).
  ///
  /// - Parameter type: The type.
  /// - Returns: Its supertypes, without the type itself; empty for an unknown type.
  public func supertypes(of type: UTType) -> [UTType] {
    supertypes(of: type.typeIdentifier).map { UTType(resolved: $0) }
  }

  /// The identifiers of every type a type conforms to, nearest first.
  package func supertypes(of type: TypeIdentifier) -> [TypeIdentifier] {
    guard let position = indexByIdentifier[type] else {
      guard let specification = type.dynamicSpecification else { return [] }
      var seen = Set<TypeIdentifier>()
      var result: [TypeIdentifier] = []
      for parent in specification.parents {
        for identifier in [parent] + supertypes(of: parent) where seen.insert(identifier).inserted {
          result.append(identifier)
        }
      }
      return result
    }
    return orderedSupertypes[Int(position)].map { nodes[Int($0)].identifier }
  }

  /// Every declared type that conforms to a type (including the type itself), sorted by
  /// identifier.
  ///
  /// - Parameter parent: The type.
  /// - Returns: The conforming declared types.
  public func types(conformingTo parent: UTType) -> [UTType] {
    types(conformingTo: parent.typeIdentifier).map { UTType(resolved: $0) }
  }

  /// The identifiers of every declared type that conforms to a type, sorted.
  package func types(conformingTo parent: TypeIdentifier) -> [TypeIdentifier] {
    nodes.filter { $0.isDeclared && conforms($0.identifier, to: parent) }
      .map(\.identifier).sorted()
  }

  /// The direct parents a type declares, in declared order.
  ///
  /// - Parameter type: The type.
  /// - Returns: The parents; empty for an unknown type.
  public func parents(of type: UTType) -> [UTType] {
    parents(of: type.typeIdentifier).map { UTType(resolved: $0) }
  }

  /// The identifiers of the direct parents a type declares, in declared order.
  package func parents(of type: TypeIdentifier) -> [TypeIdentifier] {
    guard let position = indexByIdentifier[type] else {
      return type.dynamicSpecification?.parents ?? []
    }
    return nodes[Int(position)].parents.map { nodes[Int($0)].identifier }
  }

  /// The types on a conformance cycle through a type, if any.
  ///
  /// - Parameter type: The type.
  /// - Returns: `true` when one of the type's supertypes conforms back to it.
  package func isOnCycle(_ type: TypeIdentifier) -> Bool {
    guard let position = indexByIdentifier[type] else { return false }
    let node = nodes[Int(position)]
    return node.parents.contains { conforms(nodes[Int($0)].identifier, to: type) }
  }
}
