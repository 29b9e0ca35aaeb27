import Archives
import FolioSystem
import FoundationEssentials
import Glibc

/// `folio pack`: flattens a package (or any folder) into one archive.
struct Pack: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "pack",
    abstract: "Flatten a package (or any folder) into a zip or tar archive.",
    discussion: """
      The archive's top folder is the package itself (as 'ditto --keepParent'), so
      expanding it gives the package back. Kept: folders (empty ones too), file bytes,
      permission bits, modification times, symbolic links as links, hard links once
      (tar), UTF-8 names, extended attributes and POSIX ACLs (unless --no-xattrs: tar
      stores every attribute as pax SCHILY.xattr.NAME records and ACLs as
      SCHILY.acl.access/default, as GNU tar and bsdtar read them; zip stores the
      user.* attributes as macOS does, in AppleDouble '__MACOSX/DIR/._NAME' entries
      under their macOS names, without 'user.', unless --no-apple-double, which leaves
      them out of a zip). Sockets, devices and FIFOs are refused, and so are symbolic
      links pointing outside the package unless --allow-external-symlinks is given.
      A zip has no place for ACLs or other namespaces' attributes. 'folio expand' sets
      the user.* attributes again, the ACLs only with --acls, and never security.*,
      trusted.* or other system.* attributes.
      Zip stores files that are already compressed (images, audio, video, archives,
      random-looking data) and deflates the rest; --level deflates every file.
      Entries are read and compressed by --jobs threads and written in order: the archive
      is the same whatever the number of jobs.
      The archive is written to a temporary file beside OUT and moved into place only
      when complete: on failure or Ctrl-C, OUT is left as it was. PACKAGE is locked
      (shared) while it is read, so a concurrent 'folio expand' into it waits.
      --reproducible (also on when SOURCE_DATE_EPOCH is set) writes byte-identical
      archives for identical trees: sorted entries, owner and group 0, whole-second
      times clamped to SOURCE_DATE_EPOCH.
      --update (zip only) reuses the existing OUT: every file whose path, size,
      modification time and mode match an entry of OUT (and its CRC-32, with
      --checksum) has that entry's compressed bytes copied instead of compressed
      again, as 'zip -u' does; new and changed files are compressed, entries of files
      no longer in PACKAGE are dropped, and the result replaces OUT atomically as any
      pack does (--update implies --force). Without an OUT yet it packs afresh. The
      archive is the one a fresh pack writes when OUT was written by folio with the
      same options (for example both --reproducible).
      """,
    options: [
      output, force, update, checksum, format, level, reproducible, keepParent,
      allowExternalSymlinks, xattrs, appleDouble,
      SharedOptions.exclude, SharedOptions.jobs, ProgressOptions.mode, lockTimeout,
      ProgressOptions.quiet,
    ],
    arguments: [packageArgument])

  static let output = Option.path(
    "output", short: "o", valueName: "OUT",
    help: "The archive to write (default: PACKAGE's name plus the format's extension, here).")
  static let force = Option.flag("force", short: "f", help: "Replace an existing OUT.")
  static let update = Option.flag(
    "update",
    help:
      "Reuse OUT's entries for files whose path, size, time and mode match; compress only the rest (zip; implies --force)."
  )
  static let checksum = Option.flag(
    "checksum", help: "With --update, reuse an entry only when the file's CRC-32 matches too.")
  static let format = Option.choice(
    "format", valueName: "FORMAT", ArchiveFormat.allCases, name: \.name,
    help: "zip, tar, tar.gz, tar.bz2, tar.xz or tar.zst (default: from OUT's extension, else zip).")
  static let level = Option.integer(
    "level", in: 0...22,
    help: "Compression level (zip 0-9, 0 stores; gzip/bzip2 1-9; xz 0-9; zstd 1-19).")
  static let reproducible = Option.flag(
    "reproducible", help: "Write byte-identical archives for identical trees.")
  static let keepParent = Option.negatable(
    "keep-parent", default: true,
    help:
      "Make the package itself the archive's top folder (the default), or put its contents at the top."
  )
  static let allowExternalSymlinks = Option.flag(
    "allow-external-symlinks", help: "Store symbolic links that point outside the package.")
  static let xattrs = Option.negatable(
    "xattrs", default: true,
    help:
      "Store extended attributes and ACLs (the default): tar pax records, zip AppleDouble '__MACOSX/' entries."
  )
  static let appleDouble = Option.negatable(
    "apple-double", default: true,
    help:
      "Store a zip's extended attributes in AppleDouble '__MACOSX/' entries as macOS does (the default), or leave them out of the zip (a tar keeps them as pax records)."
  )
  static let lockTimeout = SharedOptions.lockTimeout(on: "PACKAGE")
  static let packageArgument = Argument.one(
    "PACKAGE", completion: .directory, help: "The package or folder to pack.")

  var package: String
  var output: String?
  var replacePolicy: ReplacePolicy
  var checksum: Bool
  var format: ArchiveFormat?
  var level: Int?
  var reproducible: Bool
  var keepParent: Bool
  var allowExternalSymlinks: Bool
  var xattrs: Bool
  var appleDouble: Bool
  var progress: ProgressDisplay.Mode?
  var quiet: Bool
  var lockTimeout: Duration?
  var jobs: Int?
  var selection: PathSelection

  init(parsing arguments: ParsedArguments) throws {
    package = arguments[Self.packageArgument]
    output = try arguments[Self.output]
    replacePolicy = try SharedOptions.replacePolicy(
      arguments, force: Self.force, update: Self.update)
    checksum = try arguments[Self.checksum]
    if checksum && replacePolicy != .update {
      throw UsageError("--checksum applies to --update only")
    }
    format = try arguments[Self.format]
    level = try arguments[Self.level]
    reproducible = try arguments[Self.reproducible]
    keepParent = try arguments[Self.keepParent]
    allowExternalSymlinks = try arguments[Self.allowExternalSymlinks]
    xattrs = try arguments[Self.xattrs]
    appleDouble = try arguments[Self.appleDouble]
    progress = try arguments[ProgressOptions.mode]
    quiet = try arguments[ProgressOptions.quiet]
    lockTimeout = try arguments[Self.lockTimeout]
    jobs = try arguments[SharedOptions.jobs]
    selection = try SharedOptions.selection(
      include: [], exclude: try arguments[SharedOptions.exclude])
  }

  func run(_ context: CommandContext) async throws -> ExitCode {
    let mode = ProgressDisplay.mode(progress: progress, quiet: quiet, sink: context.standardError)
    return try await JSONEventWriter.run(
      mode: mode, sink: context.standardError, command: ["folio", "pack"]
    ) { events in
      try await pack(context, mode: mode, events: events)
    }
  }

  private func pack(
    _ context: CommandContext, mode: ProgressDisplay.Mode, events: JSONEventWriter?
  ) async throws -> ExitCode {
    let source = URL(fileURLWithPath: context.absolutePath(package))
    // Types from FOLIO_TYPES_PATH count too: a declared zip-based type names a zip output
    // and is stored rather than deflated again. Pack needs package types and the formats
    // it writes, which the system table and declarations hold, so it does not pay to read
    // the desktop's MIME database (a parse per run). Built while the pack starts: an
    // output named .zip or .tar.gz does not wait for it, and the pack first asks it when
    // it compresses a file.
    let registry = context.loadTypeRegistryInBackground()
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
    if replacePolicy == .update && resolvedFormat != .zip {
      throw UsageError(
        "--update reuses zip entries only; \(resolvedFormat) archives are packed afresh (use --force)"
      )
    }
    var options = PackOptions(
      format: resolvedFormat, keepParent: keepParent, reproducible: reproducible,
      allowExternalSymlinks: allowExternalSymlinks, typeRegistry: registry, selection: selection)
    options.jobs = try SharedOptions.resolvedJobs(jobs, environment: context.environment)
    options.storesExtendedAttributes = xattrs
    // The library refuses an existing OUT unless the policy replaces or updates it.
    options.replacePolicy = replacePolicy
    options.reuseChecksBytes = checksum
    options.storesAppleDouble = appleDouble
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

    let display = ProgressDisplay(
      mode: mode, sink: context.standardError, verb: "Packing", events: events,
      command: ["folio", "pack"])
    let packOptions = options
    let (quiet, lockTimeout, standardError) = (self.quiet, self.lockTimeout, context.standardError)
    let result = try await display.track { progress in
      try await Packer.pack(
        source, to: destination, options: packOptions,
        lockOptions: LockWaitNotice.options(
          timeout: lockTimeout, quiet: quiet, standardError: standardError, events: events),
        progress: progress.subprogress(assigningCount: 1))
    }
    for collision in result.nameCollisions {
      // Written all the same (Linux keeps both), but expanding will need the option.
      context.standardError.write(
        "folio: warning: \(EntryName(collision.first).display) and \(EntryName(collision.second).display) differ only by case or Unicode normalisation; macOS and Windows keep only one, and 'folio expand' needs --allow-collisions\n"
      )
    }
    if !quiet {
      let reused = replacePolicy == .update ? ", \(result.reusedEntryCount) reused" : ""
      context.standardOutput.write(
        "packed \(Counted.phrase(result.fileCount, "file")) (\(ProgressDisplay.bytes(result.byteCount))\(reused)) into \(PrintedName.escaped(destination.path)) (\(ProgressDisplay.bytes(result.archiveSize)), \(result.format))\n"
      )
    }
    return .success
  }
}
