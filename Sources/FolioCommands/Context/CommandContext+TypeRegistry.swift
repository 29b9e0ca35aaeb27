import FoundationEssentials
import UniformTypes

extension CommandContext {
  /// Builds the type registry a command uses: the system types, the shared MIME database of
  /// the XDG data directories, `--declarations` files, and the `FOLIO_TYPES_PATH` and
  /// `$XDG_DATA_HOME/folio/types` directories (see ``TypeSearchPaths``).
  ///
  /// - Parameters:
  ///   - declarations: The `--declarations` paths as the user typed them.
  ///   - reportWarnings: Whether to print loading diagnostics to standard error.
  ///   - includingDesktopTypes: Whether to read the shared MIME database.
  ///   - builder: The builder to load into (the system types by default).
  /// - Returns: The registry.
  /// - Throws: ``UniformTypeError`` when a named declaration file cannot be read.
  func loadTypeRegistry(
    declarations: [String], reportWarnings: Bool = true, includingDesktopTypes: Bool = true,
    startingWith builder: TypeRegistryBuilder = TypeRegistryBuilder()
  ) throws -> TypeRegistry {
    let paths = TypeSearchPaths(environment: environment)
    let files = declarations.map { URL(fileURLWithPath: absolutePath($0)) }
    let database =
      includingDesktopTypes
      ? MIMEDatabase.load(
        mimeDirectories: paths.mimeDirectories, languages: paths.languages,
        cache: paths.cacheDirectory.map(MIMEDatabaseCache.init(directory:)))
      : nil
    let (registry, diagnostics) = try TypeRegistry.load(
      declarationFiles: files, declarationDirectories: paths.declarationDirectories,
      mimeDatabase: database, languages: paths.languages, startingWith: builder)
    if reportWarnings {
      for diagnostic in diagnostics where diagnostic.severity >= .warning {
        standardError.write("\(diagnostic)\n")
      }
    }
    return registry
  }

  /// The registry of the system types and the declaration folders, read and built on a
  /// thread of its own while the command starts its work.
  ///
  /// The folders are `FOLIO_TYPES_PATH`'s and `$XDG_DATA_HOME/folio/types` (not the
  /// desktop's MIME database); the registry's first question waits until it is built.
  /// Nothing is reported: a file there that cannot be read is skipped.
  ///
  /// - Returns: The registry.
  func loadTypeRegistryInBackground() -> TypeRegistry {
    TypeRegistry.loadingInBackground(
      declarationDirectories: TypeSearchPaths(environment: environment).declarationDirectories)
  }
}

extension CommandContext {
  /// The shared MIME database of the XDG data directories, as ``loadTypeRegistry(declarations:reportWarnings:includingDesktopTypes:startingWith:)``
  /// reads it (through the same cache), without building a registry from it.
  ///
  /// - Returns: The database; empty where no desktop database is installed.
  func loadDesktopDatabase() -> MIMEDatabase {
    let paths = TypeSearchPaths(environment: environment)
    return MIMEDatabase.load(
      mimeDirectories: paths.mimeDirectories, languages: paths.languages,
      cache: paths.cacheDirectory.map(MIMEDatabaseCache.init(directory:)))
  }
}
