import FolioTestSupport
import Foundation
import Testing

@testable import FolioCommands

/// Runs each generated script in its real shell and asks it for completions.
@Suite struct CompletionScriptTests {
  private func script(_ shell: String) async throws -> String {
    let out = OutputSink.buffer()
    let context = CommandContext(
      standardOutput: out, standardError: .buffer(), currentDirectory: "/")
    let status = await FolioMain.run(["completions", shell], context: context)
    #expect(status == 0)
    return out.text
  }

  /// Completions bash offers for a command line whose last word is being typed.
  private func bashCompletions(_ words: [String], in directory: URL) throws -> [String] {
    let scriptURL = directory.appendingPathComponent("folio.bash")
    let array = words.map { "'" + $0 + "'" }.joined(separator: " ")
    let program = """
      source '\(scriptURL.path)'
      COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1)
      _folio
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let binFolder = FolioBinary.url.deletingLastPathComponent().path
    let result = try runProcess(
      "bash", ["-c", program], in: directory,
      environment: ["PATH": binFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")])
    #expect(result.status == 0, "\(result.errorText)")
    return result.outputText.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesSubcommandsOptionsChoicesTypesAndFiles() async throws {
    let folder = try makeTemporaryDirectory("completions")
    defer { removeTree(folder) }
    try await script("bash").write(
      to: folder.appendingPathComponent("folio.bash"), atomically: true, encoding: .utf8)
    #expect(
      try runProcess("bash", ["-n", folder.appendingPathComponent("folio.bash").path]).status == 0)
    try Data().write(to: folder.appendingPathComponent("Notes.examplenotebook.zip"))

    #expect(try bashCompletions(["folio", "pa"], in: folder) == ["pack"])
    #expect(try bashCompletions(["folio", "plist", "l"], in: folder) == ["lint"])
    #expect(try bashCompletions(["folio", "pack", "--form"], in: folder) == ["--format"])
    #expect(
      try bashCompletions(["folio", "pack", "--no-k"], in: folder) == ["--no-keep-parent"])
    #expect(
      try bashCompletions(["folio", "pack", "--format", "tar.x"], in: folder) == ["tar.xz"])
    #expect(
      try bashCompletions(["folio", "expand", "--progress", ""], in: folder)
        == ["live", "json", "none"])
    #expect(
      try bashCompletions(["folio", "expand", "No"], in: folder) == ["Notes.examplenotebook.zip"])
    #expect(try bashCompletions(["folio", "completions", "z"], in: folder) == ["zsh"])
    // Types come from the built folio's registry as the user types.
    let types = try bashCompletions(["folio", "export", "x", "--to", "public.zip"], in: folder)
    #expect(types.contains("public.zip-archive"))
    #expect(
      try bashCompletions(["folio", "types", "show", "tar.g"], in: folder).contains("tar.gz"))
  }

  @Test func fishCompletesSubcommandsOptionsAndChoices() async throws {
    guard programExists("fish") else {
      Issue.record("fish is not installed (scripts/bootstrap.sh installs it)")
      return
    }
    let folder = try makeTemporaryDirectory("completions")
    defer { removeTree(folder) }
    let file = folder.appendingPathComponent("folio.fish")
    try await script("fish").write(to: file, atomically: true, encoding: .utf8)
    func complete(_ line: String) throws -> [String] {
      let result = try runProcess(
        "fish", ["--no-config", "-c", "source '\(file.path)'; complete -C '\(line)'"],
        in: folder)
      #expect(result.status == 0, "\(result.errorText)")
      return result.outputText.split(separator: "\n").map {
        String($0.split(separator: "\t", maxSplits: 1).first ?? "")
      }
    }
    #expect(try complete("folio pa") == ["pack"])
    #expect(try complete("folio types li") == ["list"])
    #expect(try complete("folio list --na").sorted() == ["--name-encoding", "--names"])
    #expect(try complete("folio pack --format tar.z") == ["tar.zst"])
    #expect(try complete("folio pack --no-keep") == ["--no-keep-parent"])
  }

  @Test func zshScriptParses() async throws {
    guard programExists("zsh") else {
      Issue.record("zsh is not installed (scripts/bootstrap.sh installs it)")
      return
    }
    let folder = try makeTemporaryDirectory("completions")
    defer { removeTree(folder) }
    let file = folder.appendingPathComponent("_folio")
    try await script("zsh").write(to: file, atomically: true, encoding: .utf8)
    let result = try runProcess("zsh", ["-n", file.path])
    #expect(result.status == 0, "\(result.errorText)")
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.hasPrefix("#compdef folio\n"))
    #expect(text.contains("'--format[zip, tar, tar.gz, tar.bz2, tar.xz or tar.zst"))
    #expect(text.contains("(zip tar tar.gz tar.bz2 tar.xz tar.zst)"))
  }

  @Test func unknownShellSuggestsTheClosest() async {
    let err = OutputSink.buffer()
    let context = CommandContext(
      standardOutput: .buffer(), standardError: err, currentDirectory: "/")
    let status = await FolioMain.run(["completions", "bsh"], context: context)
    #expect(status == 64)
    #expect(
      err.text.hasPrefix(
        "error: unknown shell 'bsh': expected one of bash, zsh, fish; did you mean 'bash' or 'zsh'?\n"
      ))
  }
}
