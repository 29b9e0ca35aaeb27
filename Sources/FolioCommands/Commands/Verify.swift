import Archives
import FoundationEssentials

extension FolioCommand {
  /// `folio verify ARCHIVE`: reads every entry through to its end and checks it, writing
  /// nothing.
  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "verify",
      abstract: "Check an archive through to its end without writing anything.",
      discussion: """
        Like 'unzip -t', '7z t' and 'gzip -t': every entry's data is read and checked
        as 'folio expand' checks it (a zip's CRC-32 and sizes against its central
        directory and local headers, a tar's header checksums and data lengths,
        every gzip, xz and zstd trailer, a complete end), and 'expand's rules and
        limits are applied too, so an archive that verifies is one 'expand' writes
        (--max-bytes, --max-entries, --max-ratio, --max-input-size and
        --allow-collisions change them as they do for 'expand'). Nothing is written;
        memory stays flat. Exit 1 names the first damaged or refused entry with the
        rule's stable code.

        --against FOLDER also compares the archive entry by entry with a tree, as GNU
        tar's --compare does: kinds, bytes (size and CRC-32), permission bits as
        'expand' sets them, symbolic link targets, modification times within the
        format's precision (a second for tar, two for zip), user.* extended
        attributes, and what either holds that the other does not. An archive whose
        entries sit in one top folder (as 'folio pack' writes one) is compared below
        it. Each difference is printed as 'PATH: what differs'; exit 1 when there is
        any.
        """,
      options: [
        against, SharedOptions.nameEncoding, SharedOptions.maxExpandedBytes,
        SharedOptions.maxEntries, SharedOptions.maxExpansionRatio,
        SharedOptions.maxArchiveInputSize, SharedOptions.allowCollisions, quiet,
      ],
      arguments: [archiveArgument])

    static let against = Option.path(
      "against", valueName: "FOLDER", directory: true,
      help: "Compare the archive with this tree and print every difference.")
    static let quiet = Option.flag(
      "quiet", short: "q", help: "Print nothing on success (the exit status says).")
    static let archiveArgument = Argument.one(
      "ARCHIVE",
      help:
        "The archive to check; '-' reads standard input (a zip is copied to a temporary file first)."
    )

    let archive: String
    let policy: ExpansionPolicy
    let quiet: Bool
    let folder: String?

    init(parsing arguments: ParsedArguments) throws {
      archive = arguments[Self.archiveArgument]
      policy = try SharedOptions.expansionRules(arguments)
      quiet = try arguments[Self.quiet]
      folder = try arguments[Self.against]
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      let input: ArchiveInput =
        archive == "-" ? .standardInput : .file(URL(fileURLWithPath: context.absolutePath(archive)))
      let policy = self.policy
      if let folder {
        let tree = URL(fileURLWithPath: context.absolutePath(folder))
        let differences = try await Task.detached {
          try ArchiveVerifier.compare(input, against: tree, policy: policy)
        }.value
        for difference in differences {
          context.standardOutput.write(
            "\(PrintedName.escaped(difference.path)): \(difference.message)\n")
        }
        if differences.isEmpty && !quiet {
          context.standardOutput.write(
            "\(PrintedName.escaped(input.displayName)) matches \(PrintedName.escaped(tree.path))\n")
        }
        return differences.isEmpty ? .success : .failure
      }
      let result = try await Task.detached { try ArchiveVerifier.verify(input, policy: policy) }
        .value
      for warning in result.warnings where !quiet {
        context.standardError.write("folio: warning: \(warning.message) [\(warning.code)]\n")
      }
      if !quiet {
        var summary = "verified \(Counted.phrase(result.fileCount, "file"))"
        if result.otherEntryCount > 0 {
          summary +=
            " and \(Counted.phrase(result.otherEntryCount, "other entry", "other entries"))"
        }
        summary +=
          " (\(ProgressDisplay.bytes(result.byteCount))) in \(PrintedName.escaped(input.displayName)) (\(result.format))\n"
        context.standardOutput.write(summary)
      }
      return .success
    }
  }
}
