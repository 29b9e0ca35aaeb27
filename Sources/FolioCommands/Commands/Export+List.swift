import Archives
import Documents
import FolioSystem
import FoundationEssentials
import UniformTypes

/// `folio export --list INPUT`: every type INPUT can become, with the default name and route.
extension Export {
  func listTargets(
    _ context: CommandContext, registry: TypeRegistry, declaredType: UTType?
  ) throws -> ExitCode {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "folio-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { FileTree.remove(atPath: scratch.path) }
    let (input, evidence) = try item(
      inputs[0], declaredType: declaredType, registry: registry, context: context, scratch: scratch)
    let plans = ExportPlan.reachablePlans(for: input, exporters: .command, registry: registry)
    context.standardOutput.write("\(input.displayName): \(input.type) (\(evidence.rawValue))\n")
    guard !plans.isEmpty else {
      context.standardOutput.write("  no exporter accepts \(input.type)\n")
      return .failure
    }
    let rows = plans.map { ($0.target.identifier, $0.defaultOutputName, $0.routeDescription) }
    let typeWidth = rows.map(\.0.count).max() ?? 0
    let nameWidth = rows.map(\.1.count).max() ?? 0
    for (type, name, route) in rows {
      context.standardOutput.write(
        "  \(type.padded(to: typeWidth))  \(name.padded(to: nameWidth))  \(route)\n"
      )
    }
    return .success
  }
}
