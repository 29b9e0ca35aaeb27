import Archives
import Documents
import FolioSystem
import FoundationEssentials
import ProgressReporting
import UniformTypes

/// `folio export --to TYPE INPUT…`: several inputs at once, each reported, one failure not stopping the others.
extension Export {
  func exportBatch(
    to targetType: UTType, declaredType: UTType?, registry: TypeRegistry,
    mode: ProgressDisplay.Mode, context: CommandContext, events: JSONEventWriter?
  ) async throws -> ExitCode {
    var folder = URL(fileURLWithPath: context.currentDirectory)
    if let output {
      folder = URL(fileURLWithPath: context.absolutePath(output))
      guard FileTree.isFolderFollowingLinks(folder.path) else {
        throw UsageError(
          "with several INPUTs, '-o' must name an existing folder; '\(output)' is not one")
      }
    }
    // Plan every input first; one that cannot be planned fails alone.
    var failures: [Int: any Error] = [:]
    var tasks: [(Int, BatchExport.Task)] = []
    var claimed: [String: String] = [:]
    for (index, input) in inputs.enumerated() {
      do {
        let (item, _) = try ExportItem.identify(
          at: URL(fileURLWithPath: context.absolutePath(input)), displayName: input,
          declaredType: declaredType,
          registry: registry)
        let plan = try ExportPlan.make(
          for: item, to: targetType, exporters: .command, registry: registry)
        let destination = folder.appendingPathComponent(plan.defaultOutputName)
        if let earlier = claimed[destination.path] {
          throw ExportError(
            .outputExists, "'\(destination.path)' is also the output of '\(earlier)'")
        }
        claimed[destination.path] = input
        if explain {
          context.standardOutput.write(plan.explanation.joined(separator: "\n") + "\n")
        }
        tasks.append(
          (index, BatchExport.Task(plan: plan, output: destination, replacePolicy: replacePolicy)))
      } catch {
        failures[index] = error
      }
    }
    let display = ProgressDisplay(
      mode: mode, sink: context.standardError, verb: "Exporting", events: events,
      command: ["folio", "export"])
    let batch = BatchExport(
      concurrency: try SharedOptions.resolvedJobs(jobs, environment: context.environment),
      lockOptions: LockWaitNotice.options(
        timeout: nil, quiet: quiet, standardError: context.standardError, events: events))
    let plannedTasks = tasks.map(\.1)
    let results: [Result<ExportResult, any Error>]
    var finals: [ProgressSnapshot?] = []
    if let events {
      // Each input its own progress, so each of its events carries it.
      let roots = tasks.map { _ in ProgressManager(totalCount: 1) }
      let forwarders = zip(tasks, roots).map { task, root in
        display.forward(root, to: events.forInput(inputs[task.0]))
      }
      results = await batch.run(plannedTasks) { roots[$0].subprogress(assigningCount: 1) }
      for root in roots {
        root.setCounts { completed, total in completed = max(completed, total ?? 0) }
      }
      for forwarder in forwarders { finals.append(await forwarder.value) }
    } else {
      results = try await display.track { progress in
        await batch.run(plannedTasks, progress: progress.subprogress(assigningCount: 1))
      }
    }
    var outcomes: [Int: Result<ExportResult, any Error>] = [:]
    for ((index, _), result) in zip(tasks, results) { outcomes[index] = result }
    var failed = 0
    for (index, input) in inputs.enumerated() {
      let stream = events?.forInput(input)
      let outcome =
        failures[index].map { Result<ExportResult, any Error>.failure($0) } ?? outcomes[index]
      switch outcome {
      case .success(let result):
        for diagnostic in result.diagnostics {
          if let stream {
            stream.warning(diagnostic.description, code: diagnostic.code)
          } else {
            context.standardError.write("\(diagnostic)\n")
          }
        }
        if let stream {
          var fields: [(String, JSONEventWriter.Value)] = [
            ("status", .string("ok")), ("type", .string(result.type.identifier)),
          ]
          if let written = result.output { fields.append(("output", .string(written.path))) }
          stream.write("input-finished", fields)
        }
        if !quiet {
          context.standardOutput.write(
            "ok      \(PrintedName.escaped(input)) -> \(result.output.map { PrintedName.escaped($0.path) } ?? "-") (\(result.type))\n"
          )
        }
      case .failure(let error):
        failed += 1
        let report = ErrorReport(error, command: ["folio", "export"])
        if let stream {
          stream.error(report)
          stream.write("input-finished", [("status", .string("failed"))])
        } else {
          context.standardError.write("failed  \(PrintedName.escaped(input)): \(report.line)\n")
        }
      case nil:
        break
      }
    }
    if let events {
      var fields = Self.sum(finals.compactMap { $0 })
      fields.append(("failedInputs", .integer(Int64(failed))))
      events.done(status: failed == 0 ? "ok" : "failed", fields: fields)
    }
    if !quiet {
      context.standardOutput.write(
        "\(inputs.count - failed) of \(inputs.count) exported, \(failed) failed\n")
    }
    return failed == 0 ? .success : .failure
  }

  /// A batch's counts: the inputs' final snapshots added up (a total is known
  /// only when every input's is).
  static func sum(_ snapshots: [ProgressSnapshot]) -> [(String, JSONEventWriter.Value)] {
    func total<T: BinaryInteger>(_ values: [T?]) -> JSONEventWriter.Value {
      guard values.allSatisfy({ $0 != nil }) else { return .null }
      return .integer(Int64(clamping: values.reduce(0) { $0 + Int64(clamping: $1!) }))
    }
    let elapsed = snapshots.map(\.elapsed).max() ?? .zero
    let bytes = snapshots.reduce(Int64(0)) { $0 + Int64(clamping: $1.completedByteCount) }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return [
      ("completedFiles", .integer(Int64(snapshots.reduce(0) { $0 + $1.completedFileCount }))),
      ("completedBytes", .integer(bytes)),
      ("bytesPerSecond", .integer(seconds > 0 ? Int64(Double(bytes) / seconds) : 0)),
      ("elapsedSeconds", .seconds(elapsed)),
      ("totalFiles", snapshots.isEmpty ? .null : total(snapshots.map(\.totalFileCount))),
      ("totalBytes", snapshots.isEmpty ? .null : total(snapshots.map(\.totalByteCount))),
      ("secondsRemaining", .null),
    ]
  }
}
