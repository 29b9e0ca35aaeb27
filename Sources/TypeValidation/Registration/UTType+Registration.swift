#if !canImport(UniformTypeIdentifiers)
  public import FoundationEssentials
  public import PropertyLists
  public import UniformTypes

  // Registration lives here, above the registry, because it judges each declaration by the
  // validator's rules for one declaration.
  extension UTType {
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
      try TypeRegistry.registerInDefault(contentsOf: url, judging: judge)
    }

    /// Adds decoded type declarations to ``registry``.
    ///
    /// - Parameter source: The declarations, as ``DeclarationSource`` decodes them.
    /// - Returns: The source's own problems, its declarations' problems (as for a file)
    ///   and the conflicts merging found.
    @discardableResult
    public static func registerDeclarations(_ source: DeclarationSource) -> [Diagnostic] {
      TypeRegistry.registerInDefault(source, judging: judge)
    }

    /// The validator's rules for one declaration, against the types registered so far.
    @Sendable private static func judge(_ source: DeclarationSource, _ registry: TypeRegistry)
      -> [Diagnostic]
    {
      TypeDeclarationValidator(baseRegistry: registry).validateDeclarations(of: source)
    }
  }
#endif
