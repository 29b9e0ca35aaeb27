#if canImport(UniformTypeIdentifiers)
  // The system's framework answers there, from the app's own Info.plist.
  @_exported public import UniformTypeIdentifiers
#else
  import FoundationEssentials
  import PropertyLists
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
    /// program registers its declarations with `registerDeclarations(contentsOf:)`, which the
    /// TypeValidation module adds because registration judges each declaration by the
    /// validator's rules.
    public static var registry: TypeRegistry { TypeRegistry.default }

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
