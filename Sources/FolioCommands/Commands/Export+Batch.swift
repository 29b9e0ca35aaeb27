import Folio
import Foundation

/// `folio export --to TYPE INPUT…`: several inputs at once, each reported, one failure not stopping the others.
extension Export {
  func exportBatch(
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
