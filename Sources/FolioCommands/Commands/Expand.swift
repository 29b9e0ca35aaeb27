import Archives
import FolioSystem
import FoundationEssentials
import Glibc

extension FolioCommand {
  /// `folio expand ARCHIVE [-o DEST]`: expands an archive into a folder, safely and atomically.
  struct Expand: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "expand",
      abstract: "Expand a zip or tar archive into a folder, safely and atomically.",
      discussion: """
        The format is detected from the content (zip, tar, tar.gz, tar.bz2, tar.xz,
        tar.zst, cpio, 7-Zip, …). DEST defaults to the archive's name without its
        archive extension, in the current folder. An archive whose entries all sit
        in one top folder (as 'folio pack' writes them) expands that folder as DEST.

        Refused, naming the entry and the rule: absolute names, '..' components,
        NUL or '\\' in names, links leaving DEST, writes through links, devices,
        FIFOs and sockets, duplicate names, names differing only by case or
        Unicode normalisation (unless --allow-collisions), and archives past the
        limits. Setuid, setgid, sticky and group/other write bits are never
        restored.

        Extended attributes: the user.* attributes an entry carries (tar pax
        SCHILY.xattr.NAME or LIBARCHIVE.xattr.NAME records) are set on what is
        written, and a zip's AppleDouble '__MACOSX/DIR/._NAME' entries (as macOS's
        Archive Utility and ditto write them) are folded back onto NAME: their
        attributes become user. + the macOS name, the Finder info
        user.com.apple.FinderInfo, the resource fork user.com.apple.ResourceFork.
        Other '__MACOSX/' and '._*' entries are skipped (--keep-apple-double writes
        them all as files instead). security.*, trusted.* and system.* attributes are
        never set, whoever runs folio; POSIX ACLs (SCHILY.acl.access/default) only
        with --acls. Values up to 64 KiB and 256 attributes an entry are kept. A file
        system that refuses an attribute gets a warning naming the file and the
        attribute; the expansion goes on. --no-xattrs sets none.

        Zip names are read as the zip specification and the peers read them: a
        name without the UTF-8 flag that is not UTF-8 either is CP437, with a
        warning (UTF-8 names without the flag stay UTF-8); --name-encoding ENC
        reads every unflagged name as ENC, and 'auto' keeps UTF-8 names or picks
        the first of CP932, EUC-JP, CP437, KOI8-R and CP866 that reads every
        unflagged name as letters of one script. A name no encoding reads is
        refused (invalid-name-encoding). In a zip made on MS-DOS
        or Windows (version made by 0, 11 or 14), '\\' in a name without '/' is the
        folder separator, with a warning, and the name then meets every rule
        above. An Info-ZIP Unicode Path field (0x7075) in either header names the
        entry when its CRC-32 matches the header's name, and the headers are
        compared so. A folder entry's stated size, which carries no data, is
        ignored. Up to 1 MiB of bytes after a gzip stream's last member that
        start no member are ignored with a warning, as gzip ignores them.

        Nothing appears at DEST unless every entry was written and every checksum
        matched; an existing DEST is untouched unless --force or --update is given.
        DEST is locked (exclusive) while it is written. A zip's files are written
        by --jobs threads once every entry has passed these checks; the result and
        any error are the same whatever the number.
        """,
      options: [
        output, force, update, SharedOptions.maxExpandedBytes, SharedOptions.maxEntries,
        SharedOptions.maxExpansionRatio, SharedOptions.maxArchiveInputSize,
        SharedOptions.allowCollisions, keepTopFolder,
        keepAppleDouble, xattrs, acls, noSync, SharedOptions.nameEncoding, SharedOptions.include,
        SharedOptions.exclude, SharedOptions.jobs,
        lockTimeout,
        ProgressOptions.mode, ProgressOptions.quiet,
      ],
      arguments: [archiveArgument, pathArguments])

    static let output = Option.path(
      "output", short: "o", valueName: "DEST", directory: true, help: "The folder to create.")
    static let force = Option.flag(
      "force", short: "f", help: "Replace an existing DEST atomically.")
    static let update = Option.flag(
      "update",
      help:
        "Rewrite only changed files of an existing DEST (others keep inode and time); remove files the archive no longer has."
    )
    static let keepTopFolder = Option.flag(
      "keep-top-folder", help: "Keep the archive's one top folder inside DEST.")
    static let keepAppleDouble = Option.flag(
      "keep-apple-double", help: "Write '__MACOSX/' and '._*' entries instead of skipping them.")
    static let xattrs = Option.negatable(
      "xattrs", default: true,
      help: "Set the entries' user.* extended attributes (the default), or none.")
    static let acls = Option.flag(
      "acls", help: "Set the entries' POSIX ACLs too (SCHILY.acl.access/default).")
    static let noSync = Option.flag(
      "no-sync", help: "Do not flush DEST to disk before moving it into place.")
    static let lockTimeout = SharedOptions.lockTimeout(on: "DEST")
    static let archiveArgument = Argument.one(
      "ARCHIVE",
      help:
        "The archive to expand; '-' reads standard input (a tar streams; a zip is copied to a temporary file first, within --max-input-size; -o is then required)."
    )
    static let pathArguments = Argument.many(
      "PATH", minimum: 0, completion: .none,
      help:
        "Expand only these entries (and what is below them), named as 'folio list' shows them or inside the top folder."
    )

    let archive: String
    let output: String?
    let replacePolicy: ReplacePolicy
    let policy: ExpansionPolicy
    let lockTimeout: Duration?
    let jobs: Int?
    let progress: ProgressDisplay.Mode?
    let quiet: Bool

    init(parsing arguments: ParsedArguments) throws {
      archive = arguments[Self.archiveArgument]
      output = try arguments[Self.output]
      replacePolicy = try SharedOptions.replacePolicy(
        arguments, force: Self.force, update: Self.update)
      if archive == "-" && output == nil {
        throw UsageError("expanding standard input ('-') needs -o DEST")
      }
      var policy = try SharedOptions.expansionRules(arguments)
      policy.keepsTopFolder = try arguments[Self.keepTopFolder]
      policy.skipsAppleDouble = !(try arguments[Self.keepAppleDouble])
      policy.flushesBeforeCommit = !(try arguments[Self.noSync])
      policy.restoresExtendedAttributes = try arguments[Self.xattrs]
      policy.restoresACLs = try arguments[Self.acls]
      policy.selection = try SharedOptions.selection(
        paths: arguments[Self.pathArguments], include: try arguments[SharedOptions.include],
        exclude: try arguments[SharedOptions.exclude])
      if replacePolicy == .update && !policy.selection.isEverything {
        throw UsageError(
          "--update cannot be combined with PATH, --include or --exclude: it would remove the entries left out"
        )
      }
      self.policy = policy
      jobs = try arguments[SharedOptions.jobs]
      lockTimeout = try arguments[Self.lockTimeout]
      progress = try arguments[ProgressOptions.mode]
      quiet = try arguments[ProgressOptions.quiet]
    }

    /// DEST when `-o` is not given: the archive's name without its archive extension.
    static func defaultDestination(for archive: String) -> String {
      let name = archive.split(separator: "/").last.map(String.init) ?? archive
      let lowered = name.lowercased()
      let extensions =
        ArchiveFormat.allCases.flatMap(\.fileExtensions) + ["7z", "cpio", "tar.lz4", "jar", "xar"]
      let match = extensions.filter { lowered.hasSuffix("." + $0) }.max { $0.count < $1.count }
      if let match, name.count > match.count + 1 {
        return String(name.dropLast(match.count + 1))
      }
      return name + ".expanded"
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      let mode = ProgressDisplay.mode(
        progress: progress, quiet: quiet, sink: context.standardError)
      return try await JSONEventWriter.run(
        mode: mode, sink: context.standardError, command: ["folio", "expand"]
      ) { events in
        try await expand(context, mode: mode, events: events)
      }
    }

    private func expand(
      _ context: CommandContext, mode: ProgressDisplay.Mode, events: JSONEventWriter?
    ) async throws -> ExitCode {
      let input: ArchiveInput =
        archive == "-" ? .standardInput : .file(URL(fileURLWithPath: context.absolutePath(archive)))
      let destination = URL(
        fileURLWithPath: context.absolutePath(output ?? Self.defaultDestination(for: archive)))
      let standardError = context.standardError
      var policy = self.policy
      policy.jobs = try SharedOptions.resolvedJobs(jobs, environment: context.environment)
      let (quiet, replacePolicy, lockTimeout) = (self.quiet, self.replacePolicy, self.lockTimeout)
      let display = ProgressDisplay(
        mode: mode, sink: standardError, verb: "Expanding", events: events,
        command: ["folio", "expand"])
      let result: ExpansionResult
      do {
        result = try await display.track { progress in
          try await Expander.expand(
            input, into: destination, policy: policy, replacePolicy: replacePolicy,
            lockOptions: LockWaitNotice.options(
              timeout: lockTimeout, quiet: quiet, standardError: standardError, events: events),
            progress: progress.subprogress(assigningCount: 1))
        }
      } catch let error as PackagingError where events == nil {
        // The rule's stable code goes last, for scripts: `… has a '..' component [parent-component]`.
        let report = ErrorReport(error, command: ["folio", "expand"])
        standardError.write("error: \(report.line) [\(report.code)]\n")
        return .failure
      }
      let removed = result.removedPaths
      for warning in result.warnings {
        if let events {
          events.warning(warning.message, code: warning.code)
        } else if !quiet {
          standardError.write("folio: warning: \(warning.message) [\(warning.code)]\n")
        }
      }
      for skipped in result.skippedEntries {
        if let events {
          events.warning(
            "skipped \(skipped.display) (macOS metadata)", code: "apple-double-skipped",
            path: EntryName.escapeForListing(skipped))
        } else if !quiet {
          standardError.write("folio: skipped \(skipped.display) (macOS metadata)\n")
        }
      }
      if !quiet {
        for path in removed {
          context.standardOutput.write("removed \(PrintedName.escaped(path))\n")
        }
        var summary = "expanded \(Counted.phrase(result.fileCount, "file"))"
        if result.symbolicLinkCount > 0 {
          summary += ", \(Counted.phrase(result.symbolicLinkCount, "symbolic link"))"
        }
        if result.hardLinkCount > 0 {
          summary += ", \(Counted.phrase(result.hardLinkCount, "hard link"))"
        }
        summary +=
          " (\(ProgressDisplay.bytes(result.byteCount))) into \(PrintedName.escaped(result.destination.path))"
        if let link = result.destinationLink {
          summary += " (the folder the symbolic link \(PrintedName.escaped(link.path)) points to)"
        }
        summary += " (\(result.format))"
        if replacePolicy == .update && result.replacedExisting {
          summary += "; \(Counted.phrase(result.unchangedFileCount, "unchanged file")) kept"
          summary += ", \(removed.count) removed"
        } else if result.replacedExisting {
          summary += ", replacing what was there"
        }
        context.standardOutput.write(summary + "\n")
      }
      return .success
    }
  }
}
