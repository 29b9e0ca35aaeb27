/// One type declaration, stored once on the heap and shared by reference
/// between a builder and the registries it builds.
///
/// A ``TypeDeclaration`` is several hundred bytes of fields held inline: kept
/// as a plain value, the builder's table of system types would hold each whole
/// declaration (twice over, with a dictionary's spare room) and every registry
/// would copy each declaration once more into its nodes. Held
/// here, both tables hold a pointer, and a registry shares the builder's
/// declarations instead of copying them (and retaining every string in them).
///
/// A system type that nothing changed holds only its row of ``SystemTypeTable``: its
/// declaration is built from the row when asked for, and its kind, parents and tags (what
/// building a registry and typing a file name need) are read from the row without it.
/// Building and keeping every system type's declaration would cost every process that
/// builds a registry, most of which never read a description.
final class SharedDeclaration: Sendable {
  private enum Storage: Sendable {
    indirect case declared(TypeDeclaration)
    case systemRow(Int)
  }

  private let storage: Storage
  /// The identifier as the declaration spells it.
  let identifier: TypeIdentifier
  /// How the type is declared, kept apart because typing a file name asks it of every
  /// candidate.
  let kind: TypeDeclaration.Kind

  /// Holds a declaration.
  ///
  /// - Parameter value: The declaration.
  init(_ value: TypeDeclaration) {
    storage = .declared(value)
    identifier = value.typeIdentifier
    kind = value.kind
  }

  /// Stands for a row of the system table.
  ///
  /// - Parameters:
  ///   - row: The row's index in ``SystemTypeTable``.
  ///   - identifier: The row's identifier.
  init(systemRow row: Int, identifier: TypeIdentifier) {
    storage = .systemRow(row)
    self.identifier = identifier
    kind = .system
  }

  /// The declaration (built from the system table's row for an unchanged system type).
  var value: TypeDeclaration {
    switch storage {
    case .declared(let value): value
    case .systemRow(let row): Self.row(row).typeDeclaration
    }
  }

  /// The file the declaration came from; `nil` for the system table.
  var sourceName: String? {
    switch storage {
    case .declared(let value): value.sourceName
    case .systemRow: nil
    }
  }

  /// The direct parents, in declared order.
  var parents: [TypeIdentifier] {
    switch storage {
    case .declared(let value): value.parents
    case .systemRow(let row): SystemTypeTable.parents(ofRow: row)
    }
  }

  /// The tags, in declared order.
  var tags: [TypeTag] {
    switch storage {
    case .declared(let value): value.tags
    case .systemRow(let row): SystemTypeTable.tags(ofRow: row)
    }
  }

  /// Whether this is an unchanged row of the system table (whose tags are all its own).
  var isSystemRow: Bool {
    if case .systemRow = storage { return true }
    return false
  }

  private static func row(_ index: Int) -> SystemTypeEntry {
    // The rows are checked against the table by a test and the builder skips a malformed
    // one, so a stored row index always parses.
    guard let entry = SystemTypeTable.entry(at: index) else {
      preconditionFailure("system table row \(index) does not parse")
    }
    return entry
  }
}
