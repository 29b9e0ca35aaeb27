import Foundation
import Packaging

/// `folio pack`: flattens a package (or any folder) into one archive.
struct Pack: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "pack",
    abstract: "Flatten a package (or any folder) into a zip or tar archive.",
    discussion: """
      The archive's top folder is the package itself (as 'ditto --keepParent'), so
      expanding it gives the package back. Kept: folders (empty ones too), file bytes,
      permission bits, modification times, symbolic links as links, hard links once
      (tar), UTF-8 names. Sockets, devices and FIFOs are refused, and so are symbolic
      links pointing outside the package unless --allow-external-symlinks is given.
      Zip stores files that are already compressed (images, audio, video, archives,
      random-looking data) and deflates the rest; --level deflates every file.
      The archive is written to a temporary file beside OUT and moved into place only
      when complete: on failure or Ctrl-C, OUT is left as it was. PACKAGE is locked
      (shared) while it is read, so a concurrent 'folio expand' into it waits.
      --reproducible (also on when SOURCE_DATE_EPOCH is set) writes byte-identical
      archives for identical trees: sorted entries, owner and group 0, whole-second
      times clamped to SOURCE_DATE_EPOCH.
      """,
    options: [
      .value(
        "output", short: "o", valueName: "OUT",
        help: "The archive to write (default: PACKAGE's name plus the format's extension, here)."),
      .value(
        "format", valueName: "FORMAT",
        help:
          "zip, tar, tar.gz, tar.bz2, tar.xz or tar.zst (default: from OUT's extension, else zip)."),
      .value(
        "level", valueName: "N",
        help: "Compression level (zip 0-9, 0 stores; gzip/bzip2 1-9; xz 0-9; zstd 1-19)."),
      .flag("reproducible", help: "Write byte-identical archives for identical trees."),
      .flag("keep-parent", help: "Make the package itself the archive's top folder (the default)."),
      .flag("no-keep-parent", help: "Put the package's contents at the archive's top level."),
      .flag(
        "allow-external-symlinks", help: "Store symbolic links that point outside the package."),
      .progressMode,
      .value(
        "lock-timeout", valueName: "SECONDS",
        help: "How long to wait for another process's lock on PACKAGE (default 30)."),
      .quiet,
    ],
    arguments: [ArgumentSpec("PACKAGE", help: "The package or folder to pack.")])

  var package: String
  var output: String?
  var format: ArchiveFormat?
  var level: Int?
  var reproducible: Bool
  var keepParent: Bool
  var allowExternalSymlinks: Bool
  var progress: String?
  var quiet: Bool
  var lockTimeout: Duration

  init(parsing arguments: ParsedArguments) throws {
    package = arguments.argument("PACKAGE") ?? ""
    output = arguments.value("output")
    if let word = arguments.value("format") {
      guard let format = ArchiveFormat(name: word) else {
        let names = ArchiveFormat.allCases.map(\.name).joined(separator: ", ")
        throw UsageError("invalid value '\(word)' for '--format': expected one of \(names)")
      }
      self.format = format
    }
    level = try arguments.integer("level", in: 0...22)
    reproducible = arguments.flag("reproducible")
    if arguments.flag("keep-parent") && arguments.flag("no-keep-parent") {
      throw UsageError("'--keep-parent' and '--no-keep-parent' contradict each other")
    }
    keepParent = !arguments.flag("no-keep-parent")
    allowExternalSymlinks = arguments.flag("allow-external-symlinks")
    progress = arguments.value("progress")
    quiet = arguments.flag("quiet")
    lockTimeout = try arguments.seconds("lock-timeout") ?? PackageLock.defaultTimeout
  }

  func run(_ context: CommandContext) async throws -> ExitCode {
    let mode = try ProgressDisplay.mode(
      progress: progress, quiet: quiet, sink: context.standardError)
    let source = URL(fileURLWithPath: context.absolutePath(package))
    // Types from FOLIO_TYPES_PATH count too: a declared zip-based type names a zip output
    // and is stored rather than deflated again.
    let registry = try context.loadTypeRegistry(declarations: [], reportWarnings: false)
    let resolvedFormat: ArchiveFormat
    let destination: URL
    if let output {
      guard output != "-" else {
        throw UsageError(
          "'-o -': folio writes archives atomically to a file, not to standard output; name a file")
      }
      destination = URL(fileURLWithPath: context.absolutePath(output))
      guard
        let chosen = format
          ?? ArchiveFormat(fileName: destination.lastPathComponent, registry: registry)
      else {
        throw UsageError(
          "cannot tell the archive format from '\(output)': give --format or name it .zip, .tar, .tar.gz, .tar.bz2, .tar.xz or .tar.zst"
        )
      }
      resolvedFormat = chosen
    } else {
      resolvedFormat = format ?? .zip
      let name = source.standardizedFileURL.lastPathComponent
      destination = URL(
        fileURLWithPath: context.absolutePath(name + "." + resolvedFormat.fileExtension))
    }
    var options = PackOptions(
      format: resolvedFormat, keepParent: keepParent, reproducible: reproducible,
      allowExternalSymlinks: allowExternalSymlinks, typeRegistry: registry)
    if let level {
      guard let levels = resolvedFormat.compressionLevels else {
        throw UsageError("'--level' does not apply to \(resolvedFormat): it is not compressed")
      }
      guard levels.contains(level) else {
        throw UsageError(
          "invalid value '\(level)' for '--level': \(resolvedFormat) takes \(levels.lowerBound) to \(levels.upperBound)"
        )
      }
      options.compressionLevel = level
      options.compression = level == 0 ? .store : .deflate
    }
    if let epoch = context.environment["SOURCE_DATE_EPOCH"], !epoch.isEmpty {
      guard let seconds = Int64(epoch), seconds >= 0 else {
        throw UsageError("invalid SOURCE_DATE_EPOCH '\(epoch)': expected seconds since 1970")
      }
      options.sourceDateEpoch = seconds
      options.reproducible = true
    }

    let display = ProgressDisplay(mode: mode, sink: context.standardError, verb: "Packing")
    let packOptions = options
    let (quiet, lockTimeout, standardError) = (self.quiet, self.lockTimeout, context.standardError)
    let result = try await display.track { progress in
      try await Packer.pack(
        source, to: destination, options: packOptions, lockTimeout: lockTimeout,
        onLockWait: { line in if !quiet { standardError.write("folio: \(line)\n") } },
        progress: progress.subprogress(assigningCount: 1))
    }
    if !quiet {
      context.standardOutput.write(
        "packed \(ProgressDisplay.count(result.fileCount)) files (\(ProgressDisplay.bytes(result.byteCount))) into \(destination.path) (\(ProgressDisplay.bytes(result.archiveSize)), \(result.format))\n"
      )
    }
    return .success
  }
}
