public import Archives
public import FolioSystem
public import FoundationEssentials
import Glibc
public import ProgressReporting
public import PropertyLists
public import UniformTypes

/// What an export produced.
public struct ExportResult: Sendable {
  /// Where the output is (`nil` when it went to a stream).
  public var output: URL?
  /// The output's type.
  public var type: UTType
  /// Warnings from every step, in order.
  public var diagnostics: [Diagnostic]
}

extension ExportPlan {
  /// Runs the plan, putting the output at `output` atomically.
  ///
  /// Every step writes into a hidden work folder beside `output` (so the last
  /// rename stays on one file system); intermediate results stay there and are
  /// removed at the end, whether the export succeeds, fails or is cancelled.
  ///
  /// - Parameters:
  ///   - output: Where the result goes (a file, or a folder for package results).
  ///   - replacePolicy: What to do when `output` exists: refuse it (the default) or replace
  ///     it. An export is written whole, so ``ReplacePolicy/update`` is refused.
  ///   - lockOptions: How long to wait for a writer's lock on a package input, and whom
  ///     to tell when it waits.
  ///   - progress: The share of the caller's progress; each step gets an equal part.
  /// - Returns: The output and the warnings.
  /// - Throws: ``ExportError`` `output-exists` or `update-unsupported` (checked before any
  ///   work), ``PackagingError`` `lock-timeout`, or the failing step's error.
  public func run(
    to output: URL, replacePolicy: ReplacePolicy = .refuse, lockOptions: LockOptions = .default,
    progress: consuming Subprogress = .untracked()
  ) async throws -> ExportResult {
    let display = output.path
    if Self.samePath(output, input.url) {
      throw ExportError(
        .outputIsInput, "'\(display)' is the input itself")
    }
    try AtomicOutput.check(output, replacePolicy)
    AtomicOutput.removeLeftovers(beside: output)
    let work = AtomicOutput.temporarySibling(of: output, kind: .work)
    try createWorkFolder(work, display: display)
    defer { removeTree(work) }
    let finalName = output.lastPathComponent
    // The steps run inside the lock's closure, which cannot take the non-copyable share.
    let reporter = progress.start(totalCount: 1)
    defer { reporter.end() }
    return try await withInputLock(lockOptions) {
      let (produced, diagnostics) = try await runSteps(
        in: work, finalName: finalName, progress: reporter.subprogress(assigningCount: 1))
      try AtomicOutput.commit(
        produced, to: output, replacePolicy: replacePolicy, display: display)
      return ExportResult(output: output, type: resultType, diagnostics: diagnostics)
    }
  }

  /// Runs the plan, putting the output at `output` atomically, replacing an existing one
  /// only when `overwrite` is `true`.
  ///
  /// - Parameters:
  ///   - output: Where the result goes (a file, or a folder for package results).
  ///   - overwrite: Whether an existing `output` may be replaced.
  ///   - lockOptions: How long to wait for a writer's lock on a package input.
  ///   - progress: The share of the caller's progress.
  /// - Returns: The output and the warnings.
  /// - Throws: As ``run(to:replacePolicy:lockOptions:progress:)``.
  @available(*, deprecated, message: "pass a ReplacePolicy: replacePolicy: .refuse or .replace")
  public func run(
    to output: URL, overwrite: Bool, lockOptions: LockOptions = .default,
    progress: consuming Subprogress = .untracked()
  ) async throws -> ExportResult {
    try await run(
      to: output, replacePolicy: overwrite ? .replace : .refuse, lockOptions: lockOptions,
      progress: progress)
  }

  /// Runs the plan and streams the single-file result to `write` (for standard output).
  ///
  /// - Parameters:
  ///   - write: Receives the output's bytes in chunks.
  ///   - lockOptions: How long to wait for a writer's lock on a package input, and whom
  ///     to tell when it waits.
  ///   - progress: The share of the caller's progress.
  /// - Returns: The output's type and the warnings.
  /// - Throws: ``ExportError`` `folder-cannot-stream` when the result is a folder; ``PackagingError``
  ///   `lock-timeout`; the failing step's error.
  public func run(
    streamingTo write: @Sendable (Data) throws -> Void, lockOptions: LockOptions = .default,
    progress: consuming Subprogress = .untracked()
  ) async throws -> ExportResult {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent(
      "folio-work-\(UUID().uuidString)")
    try createWorkFolder(work, display: work.path)
    defer { removeTree(work) }
    let reporter = progress.start(totalCount: 1)
    defer { reporter.end() }
    let (produced, diagnostics) = try await withInputLock(lockOptions) {
      try await runSteps(
        in: work, finalName: defaultOutputName, progress: reporter.subprogress(assigningCount: 1))
    }
    guard !AtomicOutput.isDirectory(produced) else {
      throw ExportError(
        .folderCannotStream, "the \(resultType) result is a folder and cannot go to a stream")
    }
    let handle: ReadingFile
    do {
      handle = try ReadingFile(atPath: produced.path)
    } catch {
      throw ExportError(.readFailed, "cannot read '\(defaultOutputName)'", cause: error)
    }
    while true {
      let chunk: Data
      do {
        chunk = try handle.read(upToCount: 256 * 1024)
      } catch {
        throw ExportError(.readFailed, "cannot read '\(defaultOutputName)'", cause: error)
      }
      if chunk.isEmpty { break }
      try write(chunk)
    }
    return ExportResult(output: nil, type: resultType, diagnostics: diagnostics)
  }

  /// Runs `body` holding a shared lock on the input when it is a package (a folder), so a
  /// concurrent `folio expand --update` into it cannot change it half-way through a read.
  private func withInputLock<T>(
    _ options: LockOptions, _ body: () async throws -> T
  ) async throws -> T {
    guard AtomicOutput.isDirectory(input.url) else { return try await body() }
    return try await PackageLock.withLock(.shared, on: input.url, options: options) {
      try await body()
    }
  }

  private func createWorkFolder(_ work: URL, display: String) throws {
    guard mkdir(work.path, 0o700) == 0 else {
      throw ExportError(
        .writeFailed, "cannot create a work folder beside '\(display)'",
        cause: SystemError.current)
    }
  }

  private func runSteps(
    in work: URL, finalName: String, progress: consuming Subprogress
  ) async throws -> (URL, [Diagnostic]) {
    let reporter = progress.start(totalCount: steps.count * 100)
    defer { reporter.end() }
    var diagnostics: [Diagnostic] = []
    var current = input
    var produced = input.url
    // A package read from an archive, when the step after an expander takes a tree.
    var tree: FileWrapper?
    for (index, step) in steps.enumerated() {
      try reporter.checkCancellation()
      // An expander's output type is only a prediction from the archive's name; check what arrived.
      if index > 0 && !registry.conforms(current.type, to: step.exporter.sourceType) {
        throw ExportError(
          .noRoute,
          "step \(index + 1) (\(step.exporter.name)) needs \(step.exporter.sourceType), but step \(index) produced \(current.type) from '\(input.displayName)'"
        )
      }
      let isLast = index == steps.count - 1
      let name = step.exporter.outputName(
        for: current, outputType: step.outputType, registry: registry)
      if readsArchiveInMemory(at: index), let expander = step.exporter as? ArchiveExpandingExporter,
        let read = try await readTree(
          current.url, policy: expander.policy, progress: reporter.subprogress(assigningCount: 100))
      {
        // Nothing expanded to disk: the next step gets the tree.
        tree = read
        let byName = registry.identify(fileName: name, kind: .directory)
        current = ExportItem(
          url: current.url,
          type: registry.conforms(byName, to: step.outputType) ? byName : step.outputType,
          displayName: "\(input.displayName) (after \(step.exporter.name))", fileName: name)
        continue
      }
      let stepFolder = work.appendingPathComponent("step-\(index + 1)")
      try createWorkFolder(stepFolder, display: work.path)
      let output = stepFolder.appendingPathComponent(isLast ? finalName : name)
      let job = ExportJob(
        input: current, output: output, outputType: step.outputType,
        outputDisplayName: isLast ? finalName : "\(name) (step \(index + 1))", registry: registry)
      if let package = tree, let treeExporter = step.exporter as? any PackageTreeExporter {
        tree = nil
        diagnostics += try await treeExporter.export(
          tree: package, job, progress: reporter.subprogress(assigningCount: 100))
      } else {
        diagnostics += try await exporter(forStep: index).export(
          job, progress: reporter.subprogress(assigningCount: 100))
      }
      guard AtomicOutput.exists(output) else {
        throw ExportError(
          .writeFailed, "\(step.exporter.name) finished without writing '\(job.outputDisplayName)'")
      }
      produced = output
      // An expanded archive's folder is what its name says (it may hold a package), when
      // that is at least what the exporter promised.
      var actualType = step.outputType
      if AtomicOutput.isDirectory(output) {
        let byName = registry.identify(fileName: name, kind: .directory)
        if registry.conforms(byName, to: step.outputType) { actualType = byName }
      }
      current = ExportItem(
        url: output, type: actualType,
        displayName: "\(input.displayName) (after \(step.exporter.name))", fileName: name)
    }
    return (produced, diagnostics)
  }

  /// The exporter step `index` runs: its own, given the plan's ``jobs`` when it packs or
  /// expands and names no count of its own.
  package func exporter(forStep index: Int) -> any Exporter {
    let exporter = steps[index].exporter
    guard let jobs else { return exporter }
    if var packer = exporter as? ArchivePackingExporter, packer.options.jobs == nil {
      packer.options.jobs = jobs
      return packer
    }
    if var expander = exporter as? ArchiveExpandingExporter, expander.policy.jobs == nil {
      expander.policy.jobs = jobs
      return expander
    }
    return exporter
  }

  /// Whether step `index` expands an archive for a next step that can read it as a tree,
  /// so the archive is read into memory instead of expanded to disk.
  func readsArchiveInMemory(at index: Int) -> Bool {
    index + 1 < steps.count && steps[index].exporter is ArchiveExpandingExporter
      && steps[index + 1].exporter is any PackageTreeExporter
  }

  /// Reads an archive into a tree, or `nil` when it holds more than a tree keeps in memory
  /// (the plan then expands it to disk).
  private func readTree(_ archive: URL, policy: ExpansionPolicy, progress: consuming Subprogress)
    async throws -> FileWrapper?
  {
    let manager = progress.start(totalCount: 1)
    defer { manager.end() }
    let limit = Self.archiveMemoryLimit
    do {
      let tree = try await runBlocking(cancelling: manager) {
        UncheckedTransfer(
          try FileWrapper.reading(
            archiveAt: archive, policy: policy, memoryLimit: limit, manager: manager))
      }
      manager.complete(count: 1)
      return tree.value
    } catch let error as PackagingError where error.code == .archiveTooLargeForMemory {
      return nil
    }
  }

  static func samePath(_ a: URL, _ b: URL) -> Bool {
    a.standardizedFileURL.resolvingSymlinksInPath().path
      == b.standardizedFileURL.resolvingSymlinksInPath().path
  }
}
