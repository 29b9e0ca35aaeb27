public import PropertyLists
public import UniformTypes

/// Checks type declarations and document types the way a careful reviewer would.
///
/// The validator looks at several decoded files together (an app's Info.plist
/// and the declaration files it relies on), with the system types, and
/// reports every problem as a ``Diagnostic`` with a stable rule code (see
/// ``ValidationRule``), the place in the file, a severity and a one-line
/// hint. It never stops at the first problem. The rules live in one file per
/// family: identifiers (`ValidationRun+Identifiers`), conformance
/// (`+Conformance`), tags (`+Tags`), document types (`+DocumentTypes`) and
/// build variables (`+BuildVariables`).
public struct TypeDeclarationValidator: Sendable {
  /// The values roles may take in `CFBundleTypeRole`.
  ///
  /// `QLGenerator` and `MDImporter` are the roles of Quick Look generators and Spotlight
  /// importers (Apple's templates and the system's own plug-ins use them).
  public static let roles = ["Editor", "Viewer", "Shell", "QLGenerator", "MDImporter", "None"]
  /// The roles of plug-ins rather than apps.
  static let pluginRoles: Set<String> = ["QLGenerator", "MDImporter"]
  /// Bundle extensions of plug-ins whose Info.plist may list document types.
  static let pluginBundleExtensions: Set<String> = ["mdimporter", "qlgenerator"]
  /// The values `LSHandlerRank` may take.
  public static let handlerRanks = ["Owner", "Default", "Alternate", "None"]
  /// Extensions that name bundle-like directories: a type claiming one is a package type.
  public static let packageExtensions: Set<String> = [
    "bundle", "framework", "plugin", "kext", "appex", "xpc", "app",
  ]

  /// How hints name the ways to give Folio what a check lacks.
  ///
  /// The library words them plainly ("define NAME"); a command line names its own options
  /// instead (`-D NAME=value`), so library text never assumes a command line.
  public struct Remedies: Sendable {
    /// The hint for a build variable without a value, given its name.
    public var defineVariable: @Sendable (String) -> String
    /// The hint for a file that needs preprocessing first.
    public var preprocess: String
    /// The hint for a type whose declaration lives elsewhere.
    public var loadDeclarations: String
    /// The hint for a file larger than the property-list size limit.
    public var raiseInputLimit: String

    /// Creates remedies.
    ///
    /// - Parameters:
    ///   - defineVariable: The hint for an unresolved build variable, given its name.
    ///   - preprocess: The hint for a file with C preprocessor directives.
    ///   - loadDeclarations: The hint for a type declared in a file not validated.
    ///   - raiseInputLimit: The hint for a file past the size limit.
    public init(
      defineVariable: @escaping @Sendable (String) -> String = {
        "define \($0) with its value to check it"
      },
      preprocess: String = "preprocess it with the build's definitions and validate the result",
      loadDeclarations: String = "load the file that declares it",
      raiseInputLimit: String = "raise the size limit if you trust the file"
    ) {
      self.defineVariable = defineVariable
      self.preprocess = preprocess
      self.loadDeclarations = loadDeclarations
      self.raiseInputLimit = raiseInputLimit
    }
  }

  /// The registry of types declared outside the files being validated.
  public var baseRegistry: TypeRegistry
  /// How hints name the remedies.
  public var remedies: Remedies
  /// Loads the Linux desktop's MIME database, if the caller has one: an app that exports a
  /// type in another vendor's domain whose format the database knows is told to import it.
  ///
  /// Called at most once per validation, and only when a file exports a type outside its
  /// bundle's domain, so a validation that needs no database reads none.
  public var desktopDatabase: (@Sendable () -> MIMEDatabase?)?

  /// Creates a validator.
  ///
  /// - Parameters:
  ///   - baseRegistry: The types known besides the validated files: the system types, or a
  ///     registry with more declarations loaded.
  ///   - remedies: How hints name the remedies.
  ///   - desktopDatabase: Loads the desktop's MIME database, which names formats other
  ///     vendors own; `nil` leaves that check out.
  public init(
    baseRegistry: TypeRegistry = .system, remedies: Remedies = .init(),
    desktopDatabase: (@Sendable () -> MIMEDatabase?)? = nil
  ) {
    self.baseRegistry = baseRegistry
    self.remedies = remedies
    self.desktopDatabase = desktopDatabase
  }

  /// Validates decoded files together.
  ///
  /// - Parameter sources: The decoded files, in the order the user named them.
  ///   Their decoding diagnostics are included in the result.
  /// - Returns: Every problem found, ordered by file (in `sources` order), line and column.
  public func validate(_ sources: [DeclarationSource]) -> [Diagnostic] {
    var run = ValidationRun(
      sources: sources, baseRegistry: baseRegistry, remedies: remedies,
      desktopDatabase: desktopDatabase)
    run.checkAll()
    return run.sortedDiagnostics()
  }
}
