import FolioTestSupport
import Foundation
import Testing

@testable import FolioCommands

/// Names holding ESC, BEL or a newline are printed escaped by every command
/// (issue 30 §5): raw, they drive the terminal or forge an output line.
@Suite struct PrintedNameTests {
  private static let hostile = [
    "bell\u{07}.txt", "esc\u{1B}[31mred.txt", "line\nremoved forged.txt",
  ]

  /// The control bytes found in a command's output, newlines between lines apart.
  private func rawControlBytes(_ text: String) -> [UInt8] {
    text.utf8.filter { ($0 < 0x20 && $0 != UInt8(ascii: "\n")) || $0 == 0x7F }
  }

  /// Makes `Tree/` with the hostile names and `keep.txt`, and `keep.tar` holding `keep.txt` only.
  private func makeTree(in folder: URL) throws -> URL {
    let tree = folder.appendingPathComponent("Tree")
    try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
    for name in Self.hostile + ["keep.txt"] {
      try Data("x".utf8).write(to: tree.appendingPathComponent(name))
    }
    let source = folder.appendingPathComponent("Source")
    try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
    try Data("x".utf8).write(to: source.appendingPathComponent("keep.txt"))
    let made = try runProcess(
      "bsdtar", ["-cf", "keep.tar", "-C", "Source", "keep.txt"], in: folder)
    #expect(made.status == 0)
    return tree
  }

  @Test func updateSaysWhatItRemovedWithTheNamesEscaped() async throws {
    try await withTemporaryDirectory("printed-update") { folder in
      _ = try makeTree(in: folder)
      let (status, output, errors) = await runFolio(
        ["expand", "keep.tar", "-o", "Tree", "--update"], in: folder)
      #expect(status == 0, "\(errors)")
      #expect(rawControlBytes(output + errors).isEmpty, "\(output.debugDescription)")
      let lines = output.split(separator: "\n").map(String.init)
      #expect(
        lines.filter { $0.hasPrefix("removed ") }.sorted() == [
          "removed bell\\u{7}.txt", "removed esc\\u{1B}[31mred.txt",
          "removed line\\nremoved forged.txt",
        ])
      #expect(lines.count == 4, "\(lines)")
      #expect(lines.last?.hasPrefix("expanded 1 file") == true)
    }
  }

  @Test func packListAndExpandPrintNoRawControlBytes() async throws {
    try await withTemporaryDirectory("printed-commands") { folder in
      _ = try makeTree(in: folder)
      let script = """
        import sys, tarfile, io
        with tarfile.open("hostile.tar", "w") as tar:
            for name in sys.argv[1:]:
                info = tarfile.TarInfo("Tree/" + name)
                info.size = 1
                tar.addfile(info, io.BytesIO(b"x"))
        """
      let made = try runProcess("python3", ["-c", script] + Self.hostile, in: folder)
      #expect(made.status == 0)
      for words in [
        ["pack", "Tree", "-o", "tree.tar"], ["list", "hostile.tar"], ["list", "-l", "hostile.tar"],
        ["expand", "hostile.tar", "-o", "Out"], ["expand", "hostile.tar", "-o", "Out", "--update"],
      ] {
        let (_, output, errors) = await runFolio(words, in: folder)
        #expect(rawControlBytes(output).isEmpty, "\(words): \(output.debugDescription)")
        #expect(rawControlBytes(errors).isEmpty, "\(words): \(errors.debugDescription)")
      }
    }
  }
}
