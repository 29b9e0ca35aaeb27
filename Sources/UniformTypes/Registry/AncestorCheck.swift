/// Answers, for types of a registry being built, whether each reaches one ancestor through
/// its parents (or is it), remembering each answer: the rankings ask it of the same types
/// for many tags.
///
/// The types are keyed by node position once the nodes exist, or by identifier before
/// (``TypeRegistryBuilder``'s ranking of the system types' MIME types).
struct AncestorCheck<Key: Hashable> {
  private let isAncestor: (Key) -> Bool
  private let parents: (Key) -> [Key]
  private var known: [Key: Bool] = [:]

  /// - Parameters:
  ///   - isAncestor: Whether a type is the one asked about (`public.data`, `public.directory`).
  ///   - parents: A type's parents.
  init(isAncestor: @escaping (Key) -> Bool, parents: @escaping (Key) -> [Key]) {
    self.isAncestor = isAncestor
    self.parents = parents
  }

  /// Whether the type is the ancestor or conforms to it; cycles are harmless.
  mutating func reaches(_ start: Key) -> Bool {
    if let answer = known[start] { return answer }
    var seen: Set<Key> = []
    var stack = [start]
    var found = false
    while let current = stack.popLast(), !found {
      guard seen.insert(current).inserted else { continue }
      if isAncestor(current) { found = true }
      stack += parents(current)
    }
    known[start] = found
    return found
  }
}

extension AncestorCheck where Key == Int32 {
  /// Asks about a registry's nodes, by position.
  ///
  /// - Parameters:
  ///   - nodes: The registry's nodes, parents by position.
  ///   - ancestor: The type asked about.
  init(nodes: [TypeRegistry.Node], ancestor: TypeIdentifier) {
    self.init(
      isAncestor: { nodes[Int($0)].identifier == ancestor }, parents: { nodes[Int($0)].parents })
  }
}
