#if canImport(UniformTypeIdentifiers)
  // The system's framework answers there, from the app's own Info.plist.
  @_exported public import UniformTypeIdentifiers
#else
  public import FoundationEssentials
  public import PropertyLists
  import Synchronization
  import FolioSystem
  import Glibc

  /// The registry ``UTType`` answers from, and the warnings already given.
  private let processTypes = Mutex(
    (builder: TypeRegistryBuilder(), registry: TypeRegistry.system, warned: Set<TypeIdentifier>()))

  extension UTType {
    /// The types every ``UTType`` value answers from: Folio's system types plus every
    /// declaration the program registered.
    ///
    /// On Apple's platforms the system reads the app's Info.plist itself; on Linux a
    /// program registers its declarations with ``registerDeclarations(contentsOf:)``.
    public static var registry: TypeRegistry { processTypes.withLock { $0.registry } }

    /// Adds the type declarations of a property list (an app's Info.plist) to ``registry``.
    ///
    /// Exported and imported declarations both count; when two sources declare one type,
    /// the rules of ``TypeRegistryBuilder`` decide (system types and the first exported
    /// declaration win). ``UTType`` values created earlier answer from the new
    /// declarations too.
    ///
    /// - Parameter url: The property list (XML, binary or JSON).
    /// - Returns: What reading and merging found: problems in the file and conflicts with
    ///   declarations already registered.
    /// - Throws: ``PropertyListError`` when the file cannot be read or parsed.
    @discardableResult
    public static func registerDeclarations(contentsOf url: URL) throws -> [Diagnostic] {
      registerDeclarations(try DeclarationSource(contentsOf: url))
    }

    /// Adds decoded type declarations to ``registry``.
    ///
    /// - Parameter source: The declarations, as ``DeclarationSource`` decodes them.
    /// - Returns: The source's own problems and the conflicts merging found.
    @discardableResult
    public static func registerDeclarations(_ source: DeclarationSource) -> [Diagnostic] {
      processTypes.withLock { state in
        let before = state.builder.diagnostics.count
        state.builder.add(source)
        state.registry = state.builder.build()
        return source.diagnostics + state.builder.diagnostics[before...]
      }
    }

    /// Prints Apple's warning for a program type nobody declared, once per identifier.
    static func warnUndeclared(_ identifier: TypeIdentifier, expected role: String) {
      let first = processTypes.withLock { $0.warned.insert(identifier).inserted }
      guard first else { return }
      let program = ProcessInfo.processInfo.processName
      let line =
        "Type \"\(identifier)\" was expected to be declared and \(role) in the Info.plist of \(program), but it was not found.\n"
      let bytes = Array(line.utf8)
      _ = bytes.withUnsafeBytes { SystemCall.writeAll(STDERR_FILENO, $0) }
    }
  }
#endif
