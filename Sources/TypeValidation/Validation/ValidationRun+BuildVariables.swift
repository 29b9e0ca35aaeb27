import PropertyLists
import UniformTypes

// Build variables: a value Folio checks that still holds `$(NAME)`, `${NAME}` or `@NAME@`
// after the given definitions. Values Folio does not interpret (NSDocumentClass,
// CFBundleTypeName, icons) are never reported: Xcode or CMake fills them in, and nothing
// Folio checks depends on them.
extension ValidationRun {
  mutating func checkBuildVariables() {
    for source in sources {
      for unresolved in source.unresolvedVariables {
        let references = unresolved.references.joined(separator: ", ")
        let names = uniqueInOrder(unresolved.names)
        diagnostics.append(
          ValidationRule.unresolvedVariable.diagnostic(
            "\(unresolved.key) \(Self.quoted(unresolved.value)) holds the build variable\(unresolved.references.count == 1 ? "" : "s") \(references), which the build fills in; Folio does not check this value until \(names.count == 1 ? "it has" : "they have") a value",
            at: unresolved.location,
            hint: names.map(remedies.defineVariable).joined(separator: "; ")))
      }
    }
  }
}

/// Names in first-seen order, each once.
private func uniqueInOrder(_ names: [String]) -> [String] {
  var seen: Set<String> = []
  return names.filter { seen.insert($0).inserted }
}
