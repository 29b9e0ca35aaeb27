import Archives
import Documents
import FolioSystem
import FoundationEssentials
import UniformTypes

/// `folio export`: writes documents as another content type, finding the way through the type registry.
struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "export",
    abstract:
      "Export documents to another content type (archive, text, Markdown, HTML, JSON, plist).",
    discussion: """
      INPUT's type comes from its name through the type registry (the system types,
      --declarations files, then every *.plist in FOLIO_TYPES_PATH's folders and in
      $XDG_DATA_HOME/folio/types), or from its first bytes when the name says nothing.
      A notebook needs its declaration: pass --declarations Samples/NotebookApp/Info.plist.
      TYPE is an identifier (public.zip-archive), an extension (zip, txt) or a MIME type
      (text/markdown). With no direct exporter, Folio chains exporters (a zipped notebook
      is expanded, then exported); --explain shows the steps, --list every reachable type.
      Outputs are written beside a hidden temporary and renamed into place, never over
      an existing file unless --force is given. INPUT '-' reads standard input (a single
      file; say what it is with --from when its bytes do not tell), and OUT '-' writes
      standard output. With several INPUTs, they are exported concurrently (--jobs) into
      the current folder or into OUT, which must then be a folder; each is reported, and
      one failure does not stop the others (exit 1 if any failed).
      """,
    options: [
      to, output, SharedOptions.declarations, from, list, explain, force, SharedOptions.jobs,
      ProgressOptions.mode, ProgressOptions.quiet,
    ],
    arguments: [inputArguments])

  static let to = Option.string(
    "to", valueName: "TYPE", completion: .type,
    help: "The type to export to: identifier, extension or MIME type.")
  static let output = Option.path(
    "output", short: "o", valueName: "OUT",
    help:
      "Where to write (default: INPUT's base name plus TYPE's extension, here; '-' for standard output)."
  )
  static let from = Option.string(
    "from", valueName: "TYPE", completion: .type,
    help: "The input's type, when its name and bytes do not tell.")
  static let list = Option.flag(
    "list", help: "List every type INPUT can be exported to, with the route.")
  static let explain = Option.flag("explain", help: "Print the input's type and each export step.")
  static let force = Option.flag("force", short: "f", help: "Replace existing outputs.")
  static let inputArguments = Argument.many(
    "INPUT", minimum: 1, help: "The documents to export ('-' for standard input).")

  var inputs: [String]
  var target: String?
  var output: String?
  var declarations: [String]
  var from: String?
  var list: Bool
  var explain: Bool
  var replacePolicy: ReplacePolicy
  var jobs: Int?
  var progress: ProgressDisplay.Mode?
  var quiet: Bool

  init(parsing arguments: ParsedArguments) throws {
    inputs = arguments[Self.inputArguments]
    target = try arguments[Self.to]
    output = try arguments[Self.output]
    declarations = try arguments[SharedOptions.declarations]
    from = try arguments[Self.from]
    list = try arguments[Self.list]
    explain = try arguments[Self.explain]
    replacePolicy = try SharedOptions.replacePolicy(arguments, force: Self.force)
    jobs = try arguments[SharedOptions.jobs]
    progress = try arguments[ProgressOptions.mode]
    quiet = try arguments[ProgressOptions.quiet]
    if list {
      guard inputs.count == 1 else { throw UsageError("'--list' takes one INPUT") }
      guard target == nil, output == nil else {
        throw UsageError("'--list' cannot be combined with '--to' or '-o'")
      }
    } else if target == nil {
      throw UsageError("missing '--to TYPE'")
    }
    if inputs.filter({ $0 == "-" }).count > 0 && inputs.count > 1 {
      throw UsageError("standard input ('-') can only be exported on its own")
    }
  }

  func run(_ context: CommandContext) async throws -> ExitCode {
    if list {
      let registry = try loadRegistry(context, events: nil)
      let declaredType = try from.map { try resolve($0, option: "from", registry: registry) }
      return try listTargets(context, registry: registry, declaredType: declaredType)
    }
    let mode = ProgressDisplay.mode(progress: progress, quiet: quiet, sink: context.standardError)
    return try await JSONEventWriter.run(
      mode: mode, sink: context.standardError, command: ["folio", "export"],
      inputs: inputs.count > 1 ? inputs : nil
    ) { events in
      let registry = try loadRegistry(context, events: events)
      let declaredType = try from.map { try resolve($0, option: "from", registry: registry) }
      let targetType = try resolve(target ?? "", option: "to", registry: registry)
      if inputs.count == 1 {
        return try await exportOne(
          inputs[0], to: targetType, declaredType: declaredType, registry: registry, mode: mode,
          context: context, events: events)
      }
      return try await exportBatch(
        to: targetType, declaredType: declaredType, registry: registry, mode: mode,
        context: context, events: events)
    }
  }

  // MARK: Registry and types

  /// The registry: system and export types, `--declarations` and the types folders;
  /// loading warnings go to standard error, or become events on the JSON stream.
  func loadRegistry(_ context: CommandContext, events: JSONEventWriter?) throws -> TypeRegistry {
    var builder = TypeRegistryBuilder()
    builder.addExportTypes()
    var quietContext = context
    if let events {
      // Loading warnings are reported below as events, not as lines.
      quietContext.standardError = .buffer()
      let registry = try quietContext.loadTypeRegistry(
        declarations: declarations, reportWarnings: true, startingWith: builder)
      for line in quietContext.standardError.text.split(separator: "\n") {
        events.warning(String(line))
      }
      return registry
    }
    return try context.loadTypeRegistry(
      declarations: declarations, reportWarnings: !quiet, startingWith: builder)
  }

  func resolve(_ text: String, option: String, registry: TypeRegistry) throws
    -> UTType
  {
    guard let type = registry.resolve(text) else {
      throw UsageError(
        "unknown type '\(text)' for '--\(option)': not an identifier, extension or MIME type the registry knows"
          + TypeSuggestions.didYouMean(text, registry: registry))
    }
    return type
  }

  /// The input as an item: a file or folder, or standard input saved to a temporary file.
  func item(
    _ input: String, declaredType: UTType?, registry: TypeRegistry, context: CommandContext,
    scratch: URL
  ) throws -> (ExportItem, ExportItem.TypeEvidence) {
    guard input == "-" else {
      return try ExportItem.identify(
        at: URL(fileURLWithPath: context.absolutePath(input)), displayName: input,
        declaredType: declaredType, registry: registry)
    }
    let data = try context.readStandardInput()
    guard let type = declaredType ?? ContentSniffer.type(of: data, registry: registry) else {
      throw UsageError("cannot tell what standard input holds; say it with '--from TYPE'")
    }
    guard !registry.conforms(type, to: .directory) else {
      throw UsageError("standard input can only carry a single file, not a \(type) folder")
    }
    let fileExtension = registry.preferredFilenameExtension(for: type).map { "." + $0 } ?? ""
    let url = scratch.appendingPathComponent("Untitled" + fileExtension)
    try data.write(to: url)
    return (
      ExportItem(url: url, type: type, displayName: "-", fileName: "Untitled" + fileExtension),
      declaredType == nil ? .content : .given
    )
  }

  func withScratchFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "folio-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { FileTree.remove(atPath: scratch.path) }
    return try await body(scratch)
  }
}
