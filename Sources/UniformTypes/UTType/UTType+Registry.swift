#if canImport(UniformTypeIdentifiers)
  // The system's framework answers there, from the app's own Info.plist.
  @_exported public import UniformTypeIdentifiers
#else
  public import FoundationEssentials
  public import PropertyLists
  import Synchronization
  import FolioSystem
  import Glibc

  /// The program types nobody declared that Apple's warning was given for.
  private let warnedTypes = Mutex(Set<TypeIdentifier>())

  extension UTType {
    /// The types every ``UTType`` value answers from: Folio's system types plus every
    /// declaration the program registered (``TypeRegistry/default``, the one registry of
    /// the process, which packing, expanding and identifying use too).
    ///
    /// On Apple's platforms the system reads the app's Info.plist itself; on Linux a
    /// program registers its declarations with ``registerDeclarations(contentsOf:)``.
    public static var registry: TypeRegistry { TypeRegistry.default }

    /// Adds the type declarations of a property list (an app's Info.plist) to ``registry``.
    ///
    /// Exported and imported declarations both count; when two sources declare one type,
    /// the rules of ``TypeRegistryBuilder`` decide (system types and the first exported
    /// declaration win). ``UTType`` values created earlier answer from the new
    /// declarations too. Registering the same file again, unchanged, is a no-op that
    /// returns what the first registration returned.
    ///
    /// Each declaration is judged by the validator's rules for one declaration
    /// (``TypeDeclarationValidator/declarationRules``) against the types registered so far:
    /// a supertype declared nowhere (`com.apple.pakage`, with the likely spelling as its
    /// hint) or an exported type with no base type comes back as a diagnostic, as
    /// `folio validate` reports it. The declaration is registered all the same.
    ///
    /// - Parameter url: The property list (XML, binary or JSON).
    /// - Returns: What reading, judging and merging found: problems in the file and its
    ///   declarations, and conflicts with declarations already registered.
    /// - Throws: ``PropertyListError`` when the file cannot be read or parsed.
    @discardableResult
    public static func registerDeclarations(contentsOf url: URL) throws -> [Diagnostic] {
      try TypeRegistry.registerInDefault(contentsOf: url)
    }

    /// Adds decoded type declarations to ``registry``.
    ///
    /// - Parameter source: The declarations, as ``DeclarationSource`` decodes them.
    /// - Returns: The source's own problems, its declarations' problems (as for a file)
    ///   and the conflicts merging found.
    @discardableResult
    public static func registerDeclarations(_ source: DeclarationSource) -> [Diagnostic] {
      TypeRegistry.registerInDefault(source)
    }

    /// Prints Apple's warning for a program type nobody declared, once per identifier.
    static func warnUndeclared(_ identifier: TypeIdentifier, expected role: String) {
      let first = warnedTypes.withLock { $0.insert(identifier).inserted }
      guard first else { return }
      let program = ProcessInfo.processInfo.processName
      let line =
        "Type \"\(identifier)\" was expected to be declared and \(role) in the Info.plist of \(program), but it was not found.\n"
      let bytes = Array(line.utf8)
      _ = bytes.withUnsafeBytes { SystemCall.writeAll(STDERR_FILENO, $0) }
    }
  }
#endif
