import Foundation
import UniformTypes

extension CommandContext {
  /// Builds the type registry a command uses: the system types, `--declarations`
  /// files, and the `FOLIO_TYPES_PATH` and `$XDG_DATA_HOME/folio/types` directories.
  ///
  /// - Parameters:
  ///   - declarations: The `--declarations` paths as the user typed them.
  ///   - reportWarnings: Whether to print loading diagnostics to standard error.
  ///   - builder: The builder to load into (the system types by default).
  /// - Returns: The registry.
  /// - Throws: ``UniformTypeError`` when a named declaration file cannot be read.
  func loadTypeRegistry(
    declarations: [String], reportWarnings: Bool = true,
    startingWith builder: TypeRegistryBuilder = TypeRegistryBuilder()
  ) throws -> TypeRegistry {
    let files = declarations.map { URL(fileURLWithPath: absolutePath($0)) }
    let (registry, diagnostics) = try TypeRegistry.load(
      declarationFiles: files, environment: environment, startingWith: builder)
    if reportWarnings {
      for diagnostic in diagnostics where diagnostic.severity >= .warning {
        standardError.write("\(diagnostic)\n")
      }
    }
    return registry
  }
}
