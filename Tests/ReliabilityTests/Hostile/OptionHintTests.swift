import FolioTestSupport
import Foundation
import Testing

/// Issue 11 §3 through the built `folio`: `pack` warns, naming both paths, when it writes
/// names that `expand` would refuse as colliding, and every refusal an option can lift
/// names that option (the library's own words never name one).
@Suite struct OptionHintTests {
  @Test(arguments: ["zip", "tar"])
  func packWarnsOfCollidingNamesAndExpandNamesTheOption(_ format: String) async throws {
    try await withTemporaryDirectory("collisions") { folder in
      let package = folder.appendingPathComponent("Doc")
      try FileManager.default.createDirectory(
        at: package.appendingPathComponent("Pages"), withIntermediateDirectories: true)
      try FileManager.default.createDirectory(
        at: package.appendingPathComponent("pages"), withIntermediateDirectories: true)
      for name in ["Index.html", "index.html", "caf\u{E9}.txt", "cafe\u{301}.txt", "plain.txt"] {
        try Data(name.utf8).write(to: package.appendingPathComponent(name))
      }
      let archive = folder.appendingPathComponent("Doc.\(format)")
      let folio = FolioBinary.url.path
      let packed = try ChildProcess.run(folio, ["pack", package.path, "-o", archive.path])
      #expect(packed.status == 0, "\(packed.errorText)")
      for (first, second) in [
        ("Doc/Index.html", "Doc/index.html"), ("Doc/Pages", "Doc/pages"),
        ("Doc/caf\u{E9}.txt", "Doc/cafe\u{301}.txt"),
      ] {
        let pair = Set([first, second])
        let line = packed.errorText.split(separator: "\n").first {
          $0.contains("warning:") && pair.allSatisfy($0.contains)
        }
        #expect(line != nil, "no warning naming \(first) and \(second): \(packed.errorText)")
      }
      #expect(!packed.errorText.contains("plain.txt"))
      let destination = folder.appendingPathComponent("out")
      let refused = try ChildProcess.run(folio, ["expand", archive.path, "-o", destination.path])
      #expect(refused.status == 1)
      #expect(
        refused.errorText.contains("use --allow-collisions")
          && refused.errorText.contains("[name-collision]"),
        "\(refused.errorText)")
      let allowed = try ChildProcess.run(
        folio, ["expand", archive.path, "-o", destination.path, "--allow-collisions"])
      #expect(allowed.status == 0, "\(allowed.errorText)")
    }
  }

  @Test func refusalsNameTheOptionThatLiftsThem() async throws {
    try await withTemporaryDirectory("option-hints") { folder in
      let folio = FolioBinary.url.path
      let bomb = folder.appendingPathComponent("bomb.zip")
      try HostileArchiveBuilder.build("zip-ratio-bomb", at: bomb, outside: folder)
      let many = folder.appendingPathComponent("many.zip")
      try HostileArchiveBuilder.build("zip-many", at: many, outside: folder)
      let destination = folder.appendingPathComponent("out")
      let cases: [([String], String)] = [
        (["expand", bomb.path, "-o", destination.path], "--max-ratio"),
        (
          [
            "expand", bomb.path, "-o", destination.path, "--max-ratio", "100000", "--max-bytes",
            "1M",
          ], "--max-bytes"
        ),
        (["expand", many.path, "-o", destination.path, "--max-entries", "2"], "--max-entries"),
      ]
      for (arguments, option) in cases {
        let result = try ChildProcess.run(folio, arguments)
        #expect(result.status == 1)
        #expect(result.errorText.contains(option), "\(arguments): \(result.errorText)")
      }
      #expect(
        try ChildProcess.run(folio, ["expand", many.path, "-o", destination.path]).status == 0)
      let exists = try ChildProcess.run(folio, ["expand", many.path, "-o", destination.path])
      #expect(exists.errorText.contains("--force"), "\(exists.errorText)")
      #expect(exists.errorText.contains("[output-exists]"))
    }
  }
}
