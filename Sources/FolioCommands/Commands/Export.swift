import Folio
import Foundation

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
      to, output, SharedOptions.declarations, from, list, explain, force, jobs,
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
  static let jobs = Option.integer(
    "jobs", short: "j", in: 1...1024,
    help: "How many inputs to export at once (default: the number of cores).")
  static let inputArguments = Argument.many(
    "INPUT", minimum: 1, help: "The documents to export ('-' for standard input).")

  var inputs: [String]
  var target: String?
  var output: String?
  var declarations: [String]
  var from: String?
  var list: Bool
  var explain: Bool
  var force: Bool
  var jobs: Int
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
    force = try arguments[Self.force]
    jobs = try arguments[Self.jobs] ?? ProcessInfo.processInfo.activeProcessorCount
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
    let registry = try loadRegistry(context)
    let declaredType = try from.map { try resolve($0, option: "from", registry: registry) }
    if list { return try listTargets(context, registry: registry, declaredType: declaredType) }
    let targetType = try resolve(target ?? "", option: "to", registry: registry)
    let mode = ProgressDisplay.mode(progress: progress, quiet: quiet, sink: context.standardError)
    if inputs.count == 1 {
      return try await exportOne(
        inputs[0], to: targetType, declaredType: declaredType, registry: registry, mode: mode,
        context: context)
    }
    return try await exportBatch(
      to: targetType, declaredType: declaredType, registry: registry, mode: mode, context: context)
  }

  // MARK: Registry and types

  private func loadRegistry(_ context: CommandContext) throws -> TypeRegistry {
    var builder = TypeRegistryBuilder()
    builder.addExportTypes()
    return try context.loadTypeRegistry(
      declarations: declarations, reportWarnings: !quiet, startingWith: builder)
  }

  private func resolve(_ text: String, option: String, registry: TypeRegistry) throws
    -> TypeIdentifier
  {
    guard let type = registry.resolve(text) else {
      throw UsageError(
        "unknown type '\(text)' for '--\(option)': not an identifier, extension or MIME type the registry knows"
      )
    }
    return type
  }

  /// The input as an item: a file or folder, or standard input saved to a temporary file.
  private func item(
    _ input: String, declaredType: TypeIdentifier?, registry: TypeRegistry, context: CommandContext,
    scratch: URL
  ) throws -> (ExportItem, ExportItem.TypeEvidence) {
    guard input == "-" else {
      return try ExportItem.identify(
        at: URL(fileURLWithPath: context.absolutePath(input)), displayName: input,
        declaredType: declaredType, registry: registry)
    }
    let data = try context.readStandardInput()
    guard let type = declaredType ?? ContentSniffer.type(of: data) else {
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

  private func withScratchFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "folio-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    return try await body(scratch)
  }

  // MARK: --list

  private func listTargets(
    _ context: CommandContext, registry: TypeRegistry, declaredType: TypeIdentifier?
  ) throws -> ExitCode {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "folio-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let (input, evidence) = try item(
      inputs[0], declaredType: declaredType, registry: registry, context: context, scratch: scratch)
    let plans = ExportPlan.reachablePlans(for: input, exporters: .builtIn, registry: registry)
    context.standardOutput.write("\(input.displayName): \(input.type) (\(evidence.rawValue))\n")
    guard !plans.isEmpty else {
      context.standardOutput.write("  no exporter accepts \(input.type)\n")
      return .failure
    }
    let rows = plans.map { ($0.target.rawValue, $0.defaultOutputName, $0.routeDescription) }
    let typeWidth = rows.map(\.0.count).max() ?? 0
    let nameWidth = rows.map(\.1.count).max() ?? 0
    for (type, name, route) in rows {
      context.standardOutput.write(
        "  \(type.padding(toLength: typeWidth, withPad: " ", startingAt: 0))  \(name.padding(toLength: nameWidth, withPad: " ", startingAt: 0))  \(route)\n"
      )
    }
    return .success
  }

  // MARK: One input

  private func exportOne(
    _ input: String, to targetType: TypeIdentifier, declaredType: TypeIdentifier?,
    registry: TypeRegistry,
    mode: ProgressDisplay.Mode, context: CommandContext
  ) async throws -> ExitCode {
    try await withScratchFolder { scratch in
      let (item, evidence) = try self.item(
        input, declaredType: declaredType, registry: registry, context: context, scratch: scratch)
      let plan = try ExportPlan.make(
        for: item, to: targetType, exporters: .builtIn, registry: registry)
      let toStandardOutput = output == "-" || (output == nil && input == "-")
      let explanationSink = toStandardOutput ? context.standardError : context.standardOutput
      if explain {
        var lines = plan.explanation
        lines[0] += " [\(evidence.rawValue)]"
        explanationSink.write(lines.joined(separator: "\n") + "\n")
      }
      let display = ProgressDisplay(mode: mode, sink: context.standardError, verb: "Exporting")
      let (quiet, standardError) = (self.quiet, context.standardError)
      let lockWait: @Sendable (String) -> Void = { line in
        if !quiet { standardError.write("folio: \(line)\n") }
      }
      let result: ExportResult
      if toStandardOutput {
        let sink = context.standardOutput
        result = try await display.track { progress in
          try await plan.run(
            streamingTo: { sink.write($0) }, progress: progress.subprogress(assigningCount: 1),
            onLockWait: lockWait)
        }
      } else {
        var destination = URL(
          fileURLWithPath: context.absolutePath(output ?? plan.defaultOutputName))
        // Like cp: an existing folder (or a name ending in '/') receives the output inside,
        // unless the result is itself a folder the user is replacing.
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(
          atPath: destination.path, isDirectory: &isDirectory)
        if let output,
          output.hasSuffix("/")
            || (exists && isDirectory.boolValue
              && !registry.conforms(plan.resultType, to: .directory))
        {
          destination = destination.appendingPathComponent(plan.defaultOutputName)
        }
        let target = destination
        result = try await display.track { progress in
          try await plan.run(
            to: target, overwrite: force, progress: progress.subprogress(assigningCount: 1),
            onLockWait: lockWait)
        }
      }
      for diagnostic in result.diagnostics { context.standardError.write("\(diagnostic)\n") }
      if !quiet, let written = result.output {
        context.standardOutput.write(
          "exported \(input) (\(item.type)) to \(written.path) (\(result.type))\n")
      }
      return .success
    }
  }

  // MARK: Batch

  private func exportBatch(
    to targetType: TypeIdentifier, declaredType: TypeIdentifier?, registry: TypeRegistry,
    mode: ProgressDisplay.Mode, context: CommandContext
  ) async throws -> ExitCode {
    var folder = URL(fileURLWithPath: context.currentDirectory)
    if let output {
      folder = URL(fileURLWithPath: context.absolutePath(output))
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        throw UsageError(
          "with several INPUTs, '-o' must name an existing folder; '\(output)' is not one")
      }
    }
    // Plan every input first; one that cannot be planned fails alone.
    var failures: [Int: String] = [:]
    var tasks: [(Int, BatchExport.Task)] = []
    var claimed: [String: String] = [:]
    for (index, input) in inputs.enumerated() {
      do {
        let (item, _) = try ExportItem.identify(
          at: URL(fileURLWithPath: context.absolutePath(input)), displayName: input,
          declaredType: declaredType,
          registry: registry)
        let plan = try ExportPlan.make(
          for: item, to: targetType, exporters: .builtIn, registry: registry)
        let destination = folder.appendingPathComponent(plan.defaultOutputName)
        if let earlier = claimed[destination.path] {
          throw ExportError(
            .outputExists, "'\(destination.path)' is also the output of '\(earlier)'")
        }
        claimed[destination.path] = input
        if explain {
          context.standardOutput.write(plan.explanation.joined(separator: "\n") + "\n")
        }
        tasks.append((index, BatchExport.Task(plan: plan, output: destination, overwrite: force)))
      } catch {
        failures[index] = "\(error)"
      }
    }
    let display = ProgressDisplay(mode: mode, sink: context.standardError, verb: "Exporting")
    let batch = BatchExport(concurrency: jobs)
    let plannedTasks = tasks.map(\.1)
    let results = try await display.track { progress in
      await batch.run(plannedTasks, progress: progress)
    }
    var outcomes: [Int: Result<ExportResult, any Error>] = [:]
    for ((index, _), result) in zip(tasks, results) { outcomes[index] = result }
    var failed = 0
    for (index, input) in inputs.enumerated() {
      if let message = failures[index] {
        failed += 1
        context.standardError.write("failed  \(input): \(message)\n")
      } else if let outcome = outcomes[index] {
        switch outcome {
        case .success(let result):
          for diagnostic in result.diagnostics { context.standardError.write("\(diagnostic)\n") }
          if !quiet {
            context.standardOutput.write(
              "ok      \(input) -> \(result.output?.path ?? "-") (\(result.type))\n")
          }
        case .failure(let error):
          failed += 1
          context.standardError.write("failed  \(input): \(error)\n")
        }
      }
    }
    if !quiet {
      context.standardOutput.write(
        "\(inputs.count - failed) of \(inputs.count) exported, \(failed) failed\n")
    }
    return failed == 0 ? .success : .failure
  }
}
