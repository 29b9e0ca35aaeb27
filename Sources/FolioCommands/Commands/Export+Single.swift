import Archives
import Documents
import FolioSystem
import FoundationEssentials
import UniformTypes

/// `folio export INPUT --to TYPE`: one input, to a file, a folder or standard output.
extension Export {
  func exportOne(
    _ input: String, to targetType: UTType, declaredType: UTType?,
    registry: TypeRegistry,
    mode: ProgressDisplay.Mode, context: CommandContext, events: JSONEventWriter?
  ) async throws -> ExitCode {
    try await withScratchFolder { scratch in
      let (item, evidence) = try self.item(
        input, declaredType: declaredType, registry: registry, context: context, scratch: scratch)
      var planned = try Self.plan(
        item, evidence: evidence, to: targetType, registry: registry)
      // One input: --jobs (or FOLIO_JOBS) is what its packing or expanding step uses, as
      // pack and expand use it; several inputs take it as how many run at once.
      planned.jobs = try SharedOptions.resolvedJobs(jobs, environment: context.environment)
      let plan = planned
      let toStandardOutput = output == "-" || (output == nil && input == "-")
      let explanationSink = toStandardOutput ? context.standardError : context.standardOutput
      if explain {
        var lines = plan.explanation
        lines[0] += " [\(evidence.rawValue)]"
        explanationSink.write(lines.joined(separator: "\n") + "\n")
      }
      let display = ProgressDisplay(
        mode: mode, sink: context.standardError, verb: "Exporting", events: events,
        command: ["folio", "export"])
      let lockOptions = LockWaitNotice.options(
        timeout: nil, quiet: quiet, standardError: context.standardError, events: events)
      let result: ExportResult
      if toStandardOutput {
        let sink = context.standardOutput
        result = try await display.track { progress in
          try await plan.run(
            streamingTo: { sink.write($0) }, lockOptions: lockOptions,
            progress: progress.subprogress(assigningCount: 1))
        }
      } else {
        var destination = URL(
          fileURLWithPath: context.absolutePath(output ?? plan.defaultOutputName))
        // Like cp: an existing folder (or a name ending in '/') receives the output inside,
        // unless the result is itself a folder the user is replacing.
        if let output,
          output.hasSuffix("/")
            || (FileTree.isFolderFollowingLinks(destination.path)
              && !registry.conforms(plan.resultType, to: .directory))
        {
          destination = destination.appendingPathComponent(plan.defaultOutputName)
        }
        let target = destination
        result = try await display.track { progress in
          try await plan.run(
            to: target, replacePolicy: replacePolicy, lockOptions: lockOptions,
            progress: progress.subprogress(assigningCount: 1))
        }
      }
      for diagnostic in result.diagnostics {
        if let events {
          events.warning(diagnostic.description, code: diagnostic.code)
        } else {
          context.standardError.write("\(diagnostic)\n")
        }
      }
      if !quiet, let written = result.output {
        context.standardOutput.write(
          "exported \(PrintedName.escaped(input)) (\(item.type)) to \(PrintedName.escaped(written.path)) (\(result.type))\n"
        )
      }
      return .success
    }
  }

  /// The plan, or a failure that says why there is none: a folder typed by its
  /// name as a plain `public.folder` usually lacks its declaration.
  static func plan(
    _ item: ExportItem, evidence: ExportItem.TypeEvidence, to target: UTType,
    registry: TypeRegistry
  ) throws -> ExportPlan {
    do {
      return try ExportPlan.make(for: item, to: target, exporters: .command, registry: registry)
    } catch let error as ExportError where error.code == .noRoute {
      guard evidence == .name, item.type == .folder || item.type == .directory else { throw error }
      let name = item.displayName
      let suffix = name.split(separator: "/").last.flatMap { component in
        component.contains(".") ? component.split(separator: ".").last.map { ".\($0)" } : nil
      }
      throw CommandFailure(
        code: error.code.rawValue,
        message:
          "\(error.message): '\(name)' was typed by its name as \(item.type), because no declaration gives "
          + (suffix.map { "'\($0)' folders" } ?? "it") + " a type; "
          + "pass its app's Info.plist with --declarations FILE, or put that file in a types folder "
          + "($XDG_DATA_HOME/folio/types or FOLIO_TYPES_PATH)")
    }
  }
}
