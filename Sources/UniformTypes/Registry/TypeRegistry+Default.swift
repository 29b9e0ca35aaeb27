import FolioSystem
package import FoundationEssentials
package import PropertyLists
import Synchronization

/// The declared types of the process: one registry, as Launch Services keeps one database.
struct ProcessTypes: Sendable {
  var builder = TypeRegistryBuilder()
  var registry = TypeRegistry.system
  /// The files registered so far, by standardized path: their bytes and what registering
  /// them reported, so registering one file again (a second call at launch) changes nothing.
  var files: [String: (bytes: Data, diagnostics: [Diagnostic])] = [:]
}

/// The one registry of the process, behind its lock.
let processTypes = Mutex(ProcessTypes())

extension TypeRegistry {
  /// The registry of the process: the system types plus every declaration registered
  /// with `UTType.registerDeclarations(contentsOf:)`.
  ///
  /// Every API that types a name or chooses by type (``UTType``, archive formats, pack and
  /// expand options, identification) answers from it unless it is given another registry,
  /// so a type an app declares (a zip-based `com.example.sketchbookz`) is known everywhere
  /// once registered. A value read here is a snapshot: declarations registered later are
  /// in the next read.
  public static var `default`: TypeRegistry { processTypes.withLock { $0.registry } }

  /// Adds a declaration file to ``default``; the same file, unchanged, a second time is a
  /// no-op that reports what the first time reported.
  ///
  /// - Parameters:
  ///   - url: The property list.
  ///   - judge: The checks of one declaration against the types registered so far (the
  ///     validator's, which sits above this module).
  /// - Returns: The file's own problems, its declarations' problems, and the conflicts
  ///   merging found.
  /// - Throws: ``PropertyListError`` when the file cannot be read or parsed.
  package static func registerInDefault(
    contentsOf url: URL, judging judge: (DeclarationSource, TypeRegistry) -> [Diagnostic]
  ) throws -> [Diagnostic] {
    let path = url.standardizedFileURL.path
    let limit = PropertyListReadOptions().maximumInputSize
    guard let bytes = try? FileContents.read(atPath: path, limit: limit) else {
      // The reader says why the file cannot be read, naming it.
      return registerInDefault(try DeclarationSource(contentsOf: url), judging: judge)
    }
    let data = Data(bytes)
    let document = try PropertyListReader.read(data, file: url.path)
    let source = DeclarationSource(document: document, name: url.path)
    return processTypes.withLock { state in
      if let known = state.files[path], known.bytes == data { return known.diagnostics }
      let diagnostics = Self.register(source, in: &state, judging: judge)
      state.files[path] = (data, diagnostics)
      return diagnostics
    }
  }

  /// Adds decoded declarations to ``default``.
  ///
  /// - Parameters:
  ///   - source: The declarations.
  ///   - judge: The checks of one declaration against the types registered so far.
  /// - Returns: The source's own problems, its declarations' problems, and the conflicts
  ///   merging found.
  package static func registerInDefault(
    _ source: DeclarationSource, judging judge: (DeclarationSource, TypeRegistry) -> [Diagnostic]
  ) -> [Diagnostic] {
    processTypes.withLock { Self.register(source, in: &$0, judging: judge) }
  }

  private static func register(
    _ source: DeclarationSource, in state: inout ProcessTypes,
    judging judge: (DeclarationSource, TypeRegistry) -> [Diagnostic]
  ) -> [Diagnostic] {
    let judged = judge(source, state.registry)
    let before = state.builder.diagnostics.count
    state.builder.add(source)
    state.registry = state.builder.build()
    return source.diagnostics + judged + state.builder.diagnostics[before...]
  }
}
