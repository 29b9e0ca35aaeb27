/// Answers, for nodes of a registry being built, whether each reaches one ancestor through
/// its parents (or is it), remembering each answer: the rankings ask it of the same types
/// for many tags.
struct AncestorCheck {
  let nodes: [TypeRegistry.Node]
  let ancestor: TypeIdentifier
  private var known: [Int32: Bool] = [:]

  /// - Parameters:
  ///   - nodes: The registry's nodes, parents by position.
  ///   - ancestor: The type asked about (`public.data`, `public.directory`).
  init(nodes: [TypeRegistry.Node], ancestor: TypeIdentifier) {
    self.nodes = nodes
    self.ancestor = ancestor
  }

  /// Whether the node at `position` is the ancestor or conforms to it; cycles are harmless.
  mutating func reaches(_ position: Int32) -> Bool {
    if let answer = known[position] { return answer }
    var seen: Set<Int32> = []
    var stack = [position]
    var found = false
    while let current = stack.popLast(), !found {
      guard seen.insert(current).inserted else { continue }
      if nodes[Int(current)].identifier == ancestor { found = true }
      stack += nodes[Int(current)].parents
    }
    known[position] = found
    return found
  }
}
