import Foundation
import Packaging

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
        restored. macOS '__MACOSX/' and '._*' entries are skipped.

        Nothing appears at DEST unless every entry was written and every checksum
        matched; an existing DEST is untouched unless --force or --update is given.
        DEST is locked (exclusive) while it is written.
        """,
      options: [
        .value("output", short: "o", valueName: "DEST", help: "The folder to create."),
        .flag("force", short: "f", help: "Replace an existing DEST atomically."),
        .flag(
          "update",
          help: "Rewrite only changed files of an existing DEST (others keep inode and time); remove files the archive no longer has."
        ),
        .value(
          "max-bytes", valueName: "SIZE",
          help: "Refuse to expand more than SIZE bytes in total (default 16G; K, M, G, T suffixes)."),
        .value(
          "max-entries", valueName: "N", help: "Refuse archives with more than N entries (default 1000000)."),
        .value(
          "max-ratio", valueName: "N",
          help: "Refuse data expanding more than N times its compressed size (default 1000)."),
        .flag(
          "allow-collisions",
          help: "Allow names that differ only by case or Unicode normalisation."),
        .flag("keep-top-folder", help: "Keep the archive's one top folder inside DEST."),
        .flag("keep-apple-double", help: "Write '__MACOSX/' and '._*' entries instead of skipping them."),
        .value(
          "lock-timeout", valueName: "SECONDS",
          help: "How long to wait for another process's lock on DEST (default 30)."),
        .value("progress", valueName: "FORMAT", help: "Progress on standard error: 'json' (one event per line)."),
        .flag("quiet", short: "q", help: "Print nothing but errors."),
      ],
      arguments: [ArgumentSpec("ARCHIVE", help: "The archive to expand.")])

    let archive: String
    let output: String?
    let mode: ExpansionMode
    let policy: ExpansionPolicy
    let lockTimeout: Duration
    let jsonProgress: Bool
    let quiet: Bool

    init(parsing arguments: ParsedArguments) throws {
      archive = arguments.argument("ARCHIVE") ?? ""
      output = arguments.value("output")
      if arguments.flag("force") && arguments.flag("update") {
        throw UsageError("--force and --update cannot be used together")
      }
      mode = arguments.flag("force") ? .replace : arguments.flag("update") ? .update : .fresh
      var policy = ExpansionPolicy.default
      if let bytes = try arguments.byteCount("max-bytes") { policy.maxTotalBytes = bytes }
      if let entries = try arguments.integer("max-entries", in: 1...Int(Int32.max)) {
        policy.maxEntryCount = entries
      }
      if let ratio = try arguments.integer("max-ratio", in: 1...1_000_000_000) {
        policy.maxCompressionRatio = Double(ratio)
      }
      policy.allowsNameCollisions = arguments.flag("allow-collisions")
      policy.keepsTopFolder = arguments.flag("keep-top-folder")
      policy.skipsAppleDouble = !arguments.flag("keep-apple-double")
      self.policy = policy
      if let text = arguments.value("lock-timeout") {
        guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 * 365 else {
          throw UsageError(
            "invalid value '\(text)' for '--lock-timeout': expected a number of seconds")
        }
        lockTimeout = .milliseconds(Int64(seconds * 1000))
      } else {
        lockTimeout = PackageLock.defaultTimeout
      }
      jsonProgress = try arguments.choice("progress", from: ["json"]) == "json"
      quiet = arguments.flag("quiet")
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
      let archiveURL = URL(fileURLWithPath: context.absolutePath(archive))
      let destination = URL(
        fileURLWithPath: context.absolutePath(output ?? Self.defaultDestination(for: archive)))
      let progress = ProgressReporter(totalCount: 1)
      // Subscribe before the work starts, so no event is missed.
      let events = jsonProgress ? progress.events() : nil
      let standardError = context.standardError
      let printer = events.map { events in
        Task { await ExpandProgressPrinter.printJSON(events, to: standardError) }
      }
      let result: ExpansionResult
      do {
        let quiet = self.quiet
        result = try await Expander.expand(
          archiveURL, into: destination, policy: policy, mode: mode, lockTimeout: lockTimeout,
          onLockWait: { line in if !quiet { standardError.write("folio: \(line)\n") } },
          progress: progress.subprogress(assigningCount: 1))
        progress.finish()
        await printer?.value
      } catch {
        progress.finish()
        await printer?.value
        throw error
      }
      if !quiet {
        for skipped in result.skippedEntries {
          context.standardError.write("skipped \(skipped.display) (macOS metadata)\n")
        }
        var summary = "expanded \(result.fileCount) files"
        if result.symbolicLinkCount > 0 { summary += ", \(result.symbolicLinkCount) symbolic links" }
        if result.hardLinkCount > 0 { summary += ", \(result.hardLinkCount) hard links" }
        summary += " (\(result.byteCount) bytes) into '\(result.destination.path)'"
        if mode == .update && result.replacedExisting {
          summary += "; \(result.unchangedFileCount) unchanged files kept"
        } else if result.replacedExisting {
          summary += ", replacing what was there"
        }
        context.standardError.write(summary + "\n")
      }
      return .success
    }
  }
}

/// Writes an expansion's progress events as JSON lines.
enum ExpandProgressPrinter {
  static func printJSON(_ events: AsyncStream<ProgressEvent>, to sink: OutputSink) async {
    for await event in events {
      let line: String
      switch event {
      case .fileStarted(let path, let size):
        line = #"{"event":"file-started","path":\#(quote(path)),"size":\#(size.map(String.init) ?? "null")}"#
      case .fileFinished(let path):
        line = #"{"event":"file-finished","path":\#(quote(path))}"#
      case .update(let snapshot):
        line = #"{"event":"bytes",\#(fields(snapshot))}"#
      case .finished(let snapshot):
        line = #"{"event":"done",\#(fields(snapshot))}"#
      }
      sink.write(line + "\n")
    }
  }

  private static func fields(_ snapshot: ProgressSnapshot) -> String {
    let totalFiles = snapshot.totalFiles.map(String.init) ?? "null"
    let totalBytes = snapshot.totalBytes.map(String.init) ?? "null"
    return #""completedFiles":\#(snapshot.completedFiles),"totalFiles":\#(totalFiles),"completedBytes":\#(snapshot.completedBytes),"totalBytes":\#(totalBytes)"#
  }

  private static func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
