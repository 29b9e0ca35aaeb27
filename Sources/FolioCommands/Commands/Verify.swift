import FolioSystem
import FoundationEssentials
import Packaging

extension FolioCommand {
  /// `folio verify ARCHIVE [--against FOLDER]`: checks an archive without writing anything,
  /// like `unzip -t`, `7z t` and `gzip -t`, and compares it with a folder like GNU tar's
  /// `--compare`.
  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "verify",
      abstract: "Check an archive without expanding it; compare it with a folder.",
      discussion: """
        Reads every entry through to its end and checks what the format can prove:
        zip CRC-32s and sizes, the central directory against the local headers,
        gzip, xz and zstd trailers, tar header checksums and a complete tar end.
        Nothing is written. The archive goes through the same readers and rules as
        'folio expand': an archive expand would refuse (unsafe names, links leaving
        the destination, devices, bombs) fails here too, naming the first entry.

        With --against FOLDER the tree the archive would expand to (its one top
        folder unwrapped, as expand does) is compared with FOLDER entry by entry:
        kinds, sizes and bytes, permission bits, symbolic link targets, and files'
        modification times to the second (within a second for zip). Folders' times
        are not compared. Each difference is printed on standard output, one per
        line, names escaped; extended attributes are not compared yet.

        Exit 0 when the archive is intact (and matches FOLDER), 1 when it is damaged
        or refused, or differs from FOLDER.
        """,
      options: [against, format, SharedOptions.nameEncoding, ProgressOptions.quiet],
      arguments: [archiveArgument])

    static let against = Option.path(
      "against", valueName: "FOLDER", directory: true,
      help: "Also compare the archive with FOLDER and print each difference.")
    static let format = Option.choice(
      "format", valueName: "FORMAT", of: OutputFormat.self,
      help: "text (default) or json: one JSON object on standard output.")
    static let archiveArgument = Argument.one(
      "ARCHIVE",
      help:
        "The archive to check; '-' reads standard input (a zip is copied to a temporary file first)."
    )

    /// How the result is printed.
    enum OutputFormat: String, CaseIterable, Sendable {
      case text
      case json
    }

    let archive: String
    let folder: String?
    let json: Bool
    let quiet: Bool
    let nameEncoding: ZipNameEncoding

    init(parsing arguments: ParsedArguments) throws {
      archive = arguments[Self.archiveArgument]
      folder = try arguments[Self.against]
      json = try arguments[Self.format] == .json
      quiet = try arguments[ProgressOptions.quiet]
      nameEncoding = try SharedOptions.nameEncoding(arguments[SharedOptions.nameEncoding])
    }

    func run(_ context: CommandContext) async throws -> ExitCode {
      let input: ArchiveInput =
        archive == "-" ? .standardInput : .file(URL(fileURLWithPath: context.absolutePath(archive)))
      let folder = self.folder.map { URL(fileURLWithPath: context.absolutePath($0)) }
      var policy = ExpansionPolicy.default
      policy.nameEncoding = nameEncoding
      let result: ArchiveVerification
      do {
        result = try await Task.detached { [policy] in
          try ArchiveVerifier.verify(input, against: folder, policy: policy)
        }.value
      } catch let error as PackagingError where json {
        context.standardOutput.write(render(nil, error: error))
        throw error
      }
      if json {
        context.standardOutput.write(render(result, error: nil))
      } else {
        context.standardOutput.write(result.differences.map { "\($0)\n" }.joined())
      }
      if !quiet && !json {
        let counts =
          "\(result.fileCount) files, \(result.directoryCount) folders, \(result.byteCount) bytes"
        let verdict =
          result.differences.isEmpty
          ? (folder == nil ? "intact" : "intact and matches '\(self.folder ?? "")'")
          : "intact, \(result.differences.count) differences from '\(self.folder ?? "")'"
        context.standardError.write(
          "\(input.displayName): \(verdict) (\(counts); \(result.format))\n")
      }
      return result.differences.isEmpty ? .success : .failure
    }

    /// The JSON object: the archive, whether it is intact, the error or the differences.
    private func render(_ result: ArchiveVerification?, error: PackagingError?) -> String {
      var fields = ["\"archive\":\(JSONText.quote(archive))"]
      if let folder { fields.append("\"against\":\(JSONText.quote(folder))") }
      fields.append("\"intact\":\(result != nil)")
      if let error {
        fields.append(
          "\"error\":{\"code\":\(JSONText.quote(error.code.rawValue)),\"message\":\(JSONText.quote(error.message))}"
        )
      }
      if let result {
        fields.append("\"format\":\(JSONText.quote(result.format))")
        fields.append("\"files\":\(result.fileCount)")
        fields.append("\"folders\":\(result.directoryCount)")
        fields.append("\"bytes\":\(result.byteCount)")
        if result.comparedWithFolder {
          fields.append("\"matches\":\(result.differences.isEmpty)")
          let items = result.differences.map { difference in
            var item = [
              "\"path\":\(JSONText.quote(EntryName.escapeForListing(difference.path)))",
              "\"difference\":\(JSONText.quote(difference.kind.rawValue))",
            ]
            if let value = difference.archiveValue {
              item.append("\"archive\":\(JSONText.quote(value))")
            }
            if let value = difference.folderValue {
              item.append("\"folder\":\(JSONText.quote(value))")
            }
            return "{" + item.joined(separator: ",") + "}"
          }
          fields.append("\"differences\":[" + items.joined(separator: ",") + "]")
        }
      }
      return "{" + fields.joined(separator: ",") + "}\n"
    }
  }
}
