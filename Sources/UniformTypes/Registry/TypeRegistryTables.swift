/// What a ``TypeRegistry`` answers from: its conformance graph with the closure
/// precomputed, its tag index and its content rules, built once and never changed.
final class TypeRegistryTables: Sendable {
  let nodes: [TypeRegistry.Node]
  let indexByIdentifier: [TypeIdentifier: Int32]
  /// Row `i` holds bit `j` when node `i` conforms to node `j` (reflexive, transitive).
  let closure: [UInt64]
  let wordsPerRow: Int
  /// Supertypes of each node, depth-first in declared order, without the node itself.
  let orderedSupertypes: [[Int32]]
  /// Tag class → folded tag → candidates in lookup order.
  let tagIndex: [TagClass: [String: [Int32]]]
  /// The filename-extension part of `tagIndex`, for the hot path.
  let extensionIndex: [String: [Int32]]
  /// Globs, magic and root-XML rules for identification by name and content.
  let contentRules: ContentRules
  /// The names of the sources loaded, in load order.
  let sourceNames: [String]

  init(
    nodes: [TypeRegistry.Node], sourceNames: [String], tagIndex: [TagClass: [String: [Int32]]],
    contentRules: ContentRules
  ) {
    self.nodes = nodes
    self.sourceNames = sourceNames
    self.tagIndex = tagIndex
    self.contentRules = contentRules
    self.extensionIndex = tagIndex[.filenameExtension] ?? [:]
    var index: [TypeIdentifier: Int32] = [:]
    index.reserveCapacity(nodes.count)
    for (position, node) in nodes.enumerated() { index[node.identifier] = Int32(position) }
    self.indexByIdentifier = index

    let words = max(1, (nodes.count + 63) / 64)
    var closure = [UInt64](repeating: 0, count: nodes.count * words)
    var ordered: [[Int32]] = []
    ordered.reserveCapacity(nodes.count)
    var visited = [Bool](repeating: false, count: nodes.count)
    for start in nodes.indices {
      // Depth-first, parents in declared order; the visited set makes cycles harmless.
      var order: [Int32] = []
      var stack: [Int32] = [Int32(start)]
      var touched: [Int] = []
      while let current = stack.popLast() {
        let position = Int(current)
        if visited[position] { continue }
        visited[position] = true
        touched.append(position)
        closure[start * words + position >> 6] |= 1 << UInt64(position & 63)
        if position != start { order.append(current) }
        for parent in nodes[position].parents.reversed() where !visited[Int(parent)] {
          stack.append(parent)
        }
      }
      for position in touched { visited[position] = false }
      ordered.append(order)
    }
    self.closure = closure
    self.wordsPerRow = words
    self.orderedSupertypes = ordered
  }
}
