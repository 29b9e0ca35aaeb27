#if canImport(UniformTypeIdentifiers)
  // On Apple's platforms the system framework provides UTType; Folio re-exports it
  // (UTType+Registry.swift) instead of declaring a type that would shadow it.
#else
  public import FoundationEssentials

  /// A type of data, file or folder: Apple's `UTType` over Folio's type registry.
  ///
  /// The API is the one of Apple's Uniform Type Identifiers framework, so code
  /// written for it builds against Folio on Linux. The answers come from
  /// ``UTType/registry``: Folio's compiled-in system types plus the declarations
  /// the program registered, such as its own Info.plist
  /// (``UTType/registerDeclarations(contentsOf:)``).
  ///
  /// ```swift
  /// extension UTType {
  ///   static let notebook = UTType(exportedAs: "com.example.notebook")
  /// }
  /// try UTType.registerDeclarations(contentsOf: infoPlistURL)
  /// UTType.notebook.conforms(to: .package)          // true
  /// UTType(filenameExtension: "txt") == .plainText  // true
  /// ```
  ///
  /// A value holds only its identifier (and, for a type made with
  /// ``init(exportedAs:conformingTo:)`` or ``init(importedAs:conformingTo:)``,
  /// the parent assumed while nobody declares it); every property is looked up
  /// in the registry when asked. So a constant created before the program
  /// registers its declarations answers from them afterwards. Two values are
  /// equal when their identifiers are, compared case-insensitively as Apple's
  /// `UTTypeEqual` does.
  public struct UTType: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The type's identifier as the declaration in effect spells it.
    package let typeIdentifier: TypeIdentifier
    /// What the type conforms to while the registry does not declare it
    /// (from `exportedAs:`/`importedAs:`); ignored once a declaration is in effect.
    let assumedParents: [UTType]

    package init(resolved identifier: TypeIdentifier, assumedParents: [UTType] = []) {
      self.typeIdentifier = identifier
      self.assumedParents = assumedParents
    }

    // MARK: Creating a type

    /// Creates the type with an identifier, if the registry knows it.
    ///
    /// - Parameter identifier: The identifier, such as `public.json`, in any letter case.
    /// - Returns: `nil` when no declaration is in effect for the identifier and it is not
    ///   a dynamic identifier Folio can decode.
    public init?(_ identifier: String) {
      guard let type = UTType.registry.type(withIdentifier: identifier) else { return nil }
      self = type
    }

    /// Creates the type for a filename extension.
    ///
    /// - Parameters:
    ///   - filenameExtension: The extension, without its leading period.
    ///   - supertype: The type the result must conform to, such as ``data`` or ``package``.
    /// - Returns: The first declared type claiming the extension and conforming to
    ///   `supertype`, else a dynamic type (neither declared nor public); `nil` when the
    ///   extension is empty.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
      self.init(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
    }

    /// Creates the type for a MIME type.
    ///
    /// - Parameters:
    ///   - mimeType: The MIME type, in any letter case; parameters (`; charset=…`) are
    ///     kept when a type declares them and ignored otherwise.
    ///   - supertype: The type the result must conform to.
    /// - Returns: The first declared type claiming the MIME type and conforming to
    ///   `supertype`, else a dynamic type; `nil` when the MIME type is empty.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
      self.init(tag: mimeType, tagClass: .mimeType, conformingTo: supertype)
    }

    /// Creates the type for a tag of any class.
    ///
    /// - Parameters:
    ///   - tag: The tag, such as an extension or a MIME type.
    ///   - tagClass: The tag's class.
    ///   - supertype: The type the result must conform to, or `nil` for no requirement.
    /// - Returns: The preferred type for the tag, else a dynamic type; `nil` when the tag
    ///   is empty or holds a NUL character.
    public init?(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
      guard let first = UTType.types(tag: tag, tagClass: tagClass, conformingTo: supertype).first
      else { return nil }
      self = first
    }

    /// Every type for a tag of any class, preferred first.
    ///
    /// - Parameters:
    ///   - tag: The tag, such as an extension or a MIME type.
    ///   - tagClass: The tag's class.
    ///   - supertype: The type every result must conform to, or `nil` for no requirement.
    /// - Returns: The declared types claiming the tag in the registry's lookup order, or a
    ///   single dynamic type when none does; empty when the tag is empty or holds a NUL.
    public static func types(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?)
      -> [UTType]
    {
      guard !tag.isEmpty, !tag.utf8.contains(0) else { return [] }
      let registry = UTType.registry
      let candidates =
        tagClass == .mimeType
        ? registry.identifiers(forMIMEType: tag)
        : registry.identifiers(forTag: tag, tagClass: tagClass.tagClass)
      let matching = candidates.map { UTType(resolved: $0) }.filter {
        supertype.map($0.conforms(to:)) ?? true
      }
      if !matching.isEmpty { return matching }
      let parent = supertype?.typeIdentifier ?? .data
      return [
        UTType(
          resolved: TypeIdentifier.dynamic(
            tagClass: tagClass.tagClass, tag: tag, conformingTo: parent))
      ]
    }

    /// Creates a type the program owns and declares in its Info.plist.
    ///
    /// Declare it as a constant, as with Apple's framework:
    /// `static let notebook = UTType(exportedAs: "com.example.notebook")`. While no
    /// registered declaration exports the identifier, the type still has it, is not
    /// declared, and conforms to `parentType` (``data`` when `nil`); Folio prints
    /// Apple's warning once: the type "was expected to be declared and exported".
    /// Register the declarations (``registerDeclarations(contentsOf:)``) and the
    /// same value answers from them.
    ///
    /// - Parameters:
    ///   - identifier: The type's identifier.
    ///   - parentType: The type it is expected to conform to.
    public init(exportedAs identifier: String, conformingTo parentType: UTType? = nil) {
      let registry = UTType.registry
      let requested = TypeIdentifier(identifier)
      if registry.declarationKind(of: requested) != .exported {
        UTType.warnUndeclared(requested, expected: "exported")
      }
      self.init(
        resolved: registry.declaredIdentifier(for: requested) ?? requested,
        assumedParents: [parentType ?? .data])
    }

    /// Creates a type the program uses but someone else owns.
    ///
    /// As Apple's does, this substitutes another type when the identifier's preferred
    /// filename extension belongs preferably to that other type. While nothing declares
    /// the identifier, the type conforms to `parentType` (``data`` when `nil`) and
    /// Folio warns once that it "was expected to be declared and imported".
    ///
    /// - Parameters:
    ///   - identifier: The type's identifier.
    ///   - parentType: The type it is expected to conform to.
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil) {
      let registry = UTType.registry
      let requested = TypeIdentifier(identifier)
      guard let declared = registry.declaredIdentifier(for: requested) else {
        UTType.warnUndeclared(requested, expected: "imported")
        self.init(resolved: requested, assumedParents: [parentType ?? .data])
        return
      }
      if let filenameExtension = registry.preferredFilenameExtension(for: declared),
        let preferred = registry.identifier(forFilenameExtension: filenameExtension),
        preferred != declared,
        registry.conforms(preferred, to: (parentType ?? .data).typeIdentifier)
      {
        self.init(resolved: registry.declaredIdentifier(for: preferred) ?? preferred)
      } else {
        self.init(resolved: declared)
      }
    }

    /// A type with an identifier that conforms to `parent` while nothing declares it,
    /// without the warning ``init(exportedAs:conformingTo:)`` gives: for Folio's own code,
    /// which names types a program may or may not register.
    ///
    /// - Parameters:
    ///   - identifier: The type's identifier.
    ///   - parent: What it conforms to while undeclared.
    package init(assumingUndeclared identifier: String, conformingTo parent: UTType) {
      let requested = TypeIdentifier(identifier)
      self.init(
        resolved: UTType.registry.declaredIdentifier(for: requested) ?? requested,
        assumedParents: [parent])
    }

    // MARK: Properties

    /// The type's identifier, such as `public.plain-text`.
    public var identifier: String { typeIdentifier.rawValue }

    /// The preferred filename extension, without its period (`txt` for ``plainText``).
    ///
    /// The first extension the type declares, or, when it declares none, the first
    /// one a supertype declares (never `public.data`'s or `public.item`'s).
    public var preferredFilenameExtension: String? {
      guard isKnown else { return nil }
      return UTType.registry.preferredFilenameExtension(for: typeIdentifier)
    }

    /// The preferred MIME type, found as ``preferredFilenameExtension`` is.
    public var preferredMIMEType: String? {
      guard isKnown else { return nil }
      return UTType.registry.preferredMIMEType(for: typeIdentifier)
    }

    /// Every tag the type declares, by class, each list in declared order.
    public var tags: [UTTagClass: [String]] {
      var result: [UTTagClass: [String]] = [:]
      let tags =
        UTType.registry.declaration(for: typeIdentifier)?.tags
        ?? typeIdentifier.dynamicSpecification?.tags ?? []
      for tag in tags {
        result[UTTagClass(rawValue: tag.tagClass.identifier.rawValue), default: []].append(
          tag.value)
      }
      return result
    }

    /// The type's description (`UTTypeDescription`), or a supertype's when it has none.
    ///
    /// Dynamic and undeclared types have no description.
    public var localizedDescription: String? {
      let registry = UTType.registry
      guard let declaration = registry.declaration(for: typeIdentifier) else { return nil }
      if let own = declaration.typeDescription?.value { return own }
      for parent in registry.supertypes(of: typeIdentifier) {
        if let text = registry.declaration(for: parent)?.typeDescription?.value { return text }
      }
      return nil
    }

    /// The type's version (`UTTypeVersion`), when it declares a whole number.
    public var version: Int? {
      guard let text = UTType.registry.declaration(for: typeIdentifier)?.version?.value else {
        return nil
      }
      return Int(text.trimmingWhitespace())
    }

    /// The type's reference URL (`UTTypeReferenceURL`), as declared and not validated.
    public var referenceURL: URL? {
      UTType.registry.declaration(for: typeIdentifier)?.referenceURL.flatMap {
        URL(string: $0.value)
      }
    }

    /// Whether the identifier is a dynamic one (`dyn.…`), made up for an undeclared tag.
    public var isDynamic: Bool { typeIdentifier.isDynamic }

    /// Whether a declaration of the type is in effect (system or registered).
    public var isDeclared: Bool { UTType.registry.isDeclared(typeIdentifier) }

    /// Whether the type is in the public domain (`public.…`).
    public var isPublic: Bool { !isDynamic && typeIdentifier.key.hasPrefix("public.") }

    // MARK: Conformance

    /// Whether the type is `type` or conforms to it, directly or through its supertypes.
    ///
    /// - Parameter type: The possible supertype.
    /// - Returns: `true` when equal or conforming.
    public func conforms(to type: UTType) -> Bool {
      if self == type { return true }
      let registry = UTType.registry
      if isKnown(in: registry) { return registry.conforms(typeIdentifier, to: type.typeIdentifier) }
      return assumedParents.contains { $0.conforms(to: type) }
    }

    /// Whether `type` conforms to this type and is not equal to it.
    ///
    /// - Parameter type: The possible subtype.
    /// - Returns: `true` for a strict supertype.
    public func isSupertype(of type: UTType) -> Bool { self != type && type.conforms(to: self) }

    /// Whether this type conforms to `type` and is not equal to it.
    ///
    /// - Parameter type: The possible supertype.
    /// - Returns: `true` for a strict subtype.
    public func isSubtype(of type: UTType) -> Bool { self != type && conforms(to: type) }

    /// Every type this type conforms to, directly or indirectly, without itself.
    public var supertypes: Set<UTType> { supertypes(in: UTType.registry) }

    private func supertypes(in registry: TypeRegistry) -> Set<UTType> {
      if isKnown(in: registry) {
        return Set(registry.supertypes(of: typeIdentifier).map { UTType(resolved: $0) })
      }
      var result = Set<UTType>()
      for parent in assumedParents {
        result.insert(parent)
        result.formUnion(parent.supertypes(in: registry))
      }
      result.remove(self)
      return result
    }

    /// Whether the registry declares the type or the identifier encodes its own parents.
    private var isKnown: Bool { isKnown(in: UTType.registry) }

    private func isKnown(in registry: TypeRegistry) -> Bool {
      registry.isDeclared(typeIdentifier) || typeIdentifier.dynamicSpecification != nil
    }

    // MARK: Equality, description

    public static func == (lhs: UTType, rhs: UTType) -> Bool {
      lhs.typeIdentifier == rhs.typeIdentifier
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(typeIdentifier) }

    /// The identifier.
    public var description: String { identifier }

    /// The identifier and whether the type is declared, dynamic or neither.
    public var debugDescription: String {
      let state = isDynamic ? "dynamic" : isDeclared ? "declared" : "undeclared"
      return "\(identifier) (\(state))"
    }
  }
#endif
