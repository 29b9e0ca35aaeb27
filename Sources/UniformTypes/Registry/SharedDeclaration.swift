/// One type declaration, stored once on the heap and shared by reference
/// between a builder and the registries it builds.
///
/// A ``TypeDeclaration`` is several hundred bytes of fields held inline: kept
/// as a plain value, the builder's table of 882 system types took 1.6 MB (a
/// dictionary reserves room for twice its entries, each the whole declaration)
/// and every registry copied each declaration once more into its nodes. Held
/// here, both tables hold a pointer, and a registry shares the builder's
/// declarations instead of copying them (and retaining every string in them).
final class SharedDeclaration: Sendable {
  let value: TypeDeclaration

  init(_ value: TypeDeclaration) { self.value = value }
}
