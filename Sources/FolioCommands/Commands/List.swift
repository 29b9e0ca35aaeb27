import Archives
import FoundationEssentials

extension FolioCommand {
  /// `folio list ARCHIVE`: lists an archive's entries like `bsdtar -tv`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "list",
      abstract: "List an archive's entries: mode, owner, group, size, date, name.",
      discussion: """
        Like 'bsdtar -tv'. The format is detected from the content. Names are
        printed with control characters escaped. A damaged archive (bad header,
        truncated stream, gzip trailer that does not match) is an error, even
        after the entries before the damage were listed. Zip names are decoded as
        'folio expand' decodes them (see --name-encoding there). --xattrs prints
        each entry's extended attributes (tar pax SCHILY.xattr.NAME and
        LIBARCHIVE.xattr.NAME records) and POSIX ACLs (SCHILY.acl.access/default)
        below it, one 'NAME=VALUE' line each, under their Linux names: text quoted,
        other values in hexadecimal, ACLs in their short text form. A zip keeps
        them in its '__MACOSX/' AppleDouble entries, listed as entries.
        """,
      options: [
        names, xattrs, SharedOptions.include, SharedOptions.exclude, SharedOptions.nameEncoding,
        SharedOptions.maxArchiveInputSize, maxBytes, maxRatio,
      ],
      arguments: [archiveArgument])

    static let names = Option.flag(
      "names", help: "Print only the names, one per line (like 'bsdtar -t').")
    static let maxBytes = Option.byteCount(
      "max-bytes",
      help:
        "Refuse an archive whose compressed stream decodes to more than SIZE bytes (default 16G; K, M, G, T suffixes)."
    )
    static let maxRatio = Option.integer(
      "max-ratio", in: 1...1_000_000_000,
      help: "Refuse a compressed stream decoding to more than N times its size (default 1000).")
    static let xattrs = Option.flag(
      "xattrs", help: "Print each entry's extended attributes and ACLs below it.")
    static let archiveArgument = Argument.one(
      "ARCHIVE",
      help:
        "The archive to list; '-' reads standard input (a zip is copied to a temporary file first, within --max-input-size)."
    )

    let archive: String
    let namesOnly: Bool
    let showsAttributes: Bool
    let selection: PathSelection
    let policy: ExpansionPolicy

    init(parsing arguments: ParsedArguments) throws {
      archive = arguments[Self.archiveArgument]
      namesOnly = try arguments[Self.names]
      showsAttributes = try arguments[Self.xattrs]
      selection = try SharedOptions.selection(
        include: try arguments[SharedOptions.include],
        exclude: try arguments[SharedOptions.exclude])
      var policy = ExpansionPolicy.default
      policy.nameEncoding = try SharedOptions.nameEncoding(arguments[SharedOptions.nameEncoding])
      if let size = try arguments[SharedOptions.maxArchiveInputSize] { policy.maxInputSize = size }
      if let bytes = try arguments[Self.maxBytes] { policy.maxTotalBytes = bytes }
      if let ratio = try arguments[Self.maxRatio] { policy.maxCompressionRatio = Double(ratio) }
      self.policy = policy
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      let input: ArchiveInput =
        archive == "-" ? .standardInput : .file(URL(fileURLWithPath: context.absolutePath(archive)))
      let output = context.standardOutput
      let (namesOnly, selection, policy) = (self.namesOnly, self.selection, self.policy)
      let showsAttributes = self.showsAttributes
      let line = ListingLine(now: Date())
      let standardError = context.standardError
      try await Task.detached {
        var pending = ""
        // Warnings go to standard error, after the listing, as expand gives them.
        let report: ([ArchiveWarning]) -> Void = { warnings in
          output.write(pending)
          pending = ""
          for warning in warnings {
            standardError.write("folio: warning: \(warning.message) [\(warning.code)]\n")
          }
        }
        try ArchiveLister.forEachEntry(in: input, policy: policy, warnings: report) { entry in
          if !selection.isEverything
            && !selection.selects(entryName: String(decoding: entry.name.bytes, as: UTF8.self))
          {
            return
          }
          if namesOnly {
            pending += EntryName.escapeForListing(entry.name) + "\n"
          } else {
            pending += line.render(entry) + "\n"
          }
          if showsAttributes {
            for attribute in entry.extendedAttributes {
              pending +=
                "    \(EntryName.escapeForListing(EntryName(attribute.name)))=\(attribute.displayValue)\n"
            }
          }
          if pending.utf8.count >= 1 << 16 {
            try Task.checkCancellation()
            output.write(pending)
            pending = ""
          }
        }
        output.write(pending)
      }.value
      return .success
    }
  }
}
