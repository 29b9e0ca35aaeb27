import FolioTestSupport
import Foundation
import Testing

/// Files that grow, shrink or vanish while `folio pack` reads them: the pack fails naming
/// the file, or (having retried) writes an archive whose every entry is whole and current;
/// it never writes an entry whose header size disagrees with its data, nor a stale copy.
@Suite("Inputs that change underneath", .serialized)
struct ChangingInputTests {
  /// Where the change happens: in the middle of reading the file, or before it is opened.
  enum Moment: String, CaseIterable, Sendable {
    case whileRead, beforeOpen
  }

  static let cases: [(String, Mutation.Kind, Moment)] = ["zip", "tar"].flatMap { format in
    Mutation.Kind.allCases.flatMap { kind in Moment.allCases.map { (format, kind, $0) } }
  }

  @Test(arguments: cases)
  func packFailsNamingTheFileOrWritesWholeEntries(
    _ format: String, _ kind: Mutation.Kind, _ moment: Moment
  ) async throws {
    try await withTemporaryDirectory("changing") { folder in
      let package = try NotebookFixture.make(
        at: folder.appendingPathComponent("Moving.examplenotebook"),
        attachmentBytes: 2 << 20)
      let attachment = package.appendingPathComponent("attachment.bin")
      // Entries are packed in path order with --reproducible: attachment.bin first, the
      // pages later, so a change triggered by the attachment hits a page not yet opened.
      let pages = try FileManager.default.contentsOfDirectory(
        atPath: package.appendingPathComponent("pages").path
      ).sorted()
      let target =
        moment == .whileRead
        ? attachment : package.appendingPathComponent("pages/\(pages[pages.count - 1])")
      let original = try Data(contentsOf: target)
      let mutation = Mutation(
        kind: kind, file: target, afterRead: 1, trigger: moment == .whileRead ? nil : attachment)
      let output = folder.appendingPathComponent("Moving.\(format)")
      let run = try runFolioUnderShim(
        ["pack", package.path, "-o", output.path, "--reproducible", "--quiet"],
        prefix: folder, mutation: mutation)
      try #require(run.log.mutated.count == 1, "the file was never changed: \(run.log)")
      let current = try? Data(contentsOf: target)
      print(
        "reliability: \(format) \(kind) \(moment): exit \(run.result.status.map(String.init) ?? "signal"): \(run.result.errorText.split(separator: "\n").first ?? "packed")"
      )

      if run.result.status != 0 {
        #expect(run.result.status == 1, "\(run.result.errorText)")
        #expect(
          run.result.errorText.contains(target.lastPathComponent),
          "the message does not name the file: \(run.result.errorText)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
          .filter(isFolioTemporary)
        #expect(leftovers.isEmpty)
        return
      }
      // Packed: every entry must be whole, and the changed file must be one of its states.
      let scratch = folder.appendingPathComponent("extracted")
      try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
      let extract = try runProcess("bsdtar", ["-xf", output.path, "-C", scratch.path])
      #expect(extract.status == 0, "bsdtar: \(extract.errorText)")
      if format == "zip" {
        let test = try runProcess("unzip", ["-tq", output.path])
        #expect(test.status == 0, "unzip -t: \(test.outputText)")
      } else {
        let check = try runProcess(
          "python3", ["-c", Self.tarCheck, output.path])
        #expect(check.status == 0, "tarfile: \(check.errorText)")
      }
      let relative = String(target.path.dropFirst(folder.path.count + 1))
      let packed = try? Data(contentsOf: scratch.appendingPathComponent(relative))
      // Read again after the change, or (when the file vanished but was already open) read
      // whole through its descriptor: never a stale or mixed copy of a file still there.
      // A file deleted before its folder was listed is simply not part of the tree any
      // more: an archive without it is whole and current too.
      if current == nil && moment == .beforeOpen && packed == nil { return }
      let expected = current ?? original
      #expect(
        packed == expected,
        "\(relative) was packed as \(packed?.count ?? -1) bytes, not as the \(expected.count) bytes it holds"
      )
    }
  }

  /// Reads every member of a tar to its end, so a size that disagrees with the data fails.
  static let tarCheck = """
    import sys, tarfile
    with tarfile.open(sys.argv[1]) as archive:
        for member in archive:
            if member.isfile():
                data = archive.extractfile(member).read()
                assert len(data) == member.size, member.name
    """
}
