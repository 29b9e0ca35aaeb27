import FolioCommands
import Testing

/// A small command tree shaped like folio's, for parser tests.
private struct Root: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "tool", abstract: "A test tool.", subcommands: [Convert.self, Group.self])
  func run(_ context: CommandContext) async throws -> ExitCode { .success }
}

private struct Convert: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "convert", abstract: "Convert files.",
    options: [to, output, define, force, quiet, level, keepParent],
    arguments: [files])
  static let to = Option.string("to", valueName: "FORMAT", help: "The target format.")
  static let output = Option.path("output", short: "o", valueName: "OUT", help: "Where to write.")
  static let define = Option.repeating(
    "define", short: "D", valueName: "NAME=VALUE", help: "A variable.")
  static let force = Option.flag("force", short: "f", help: "Overwrite.")
  static let quiet = Option.flag("quiet", short: "q", help: "Say less.")
  static let level = Option.string("level", valueName: "N", help: "A level.")
  static let keepParent = Option.negatable("keep-parent", default: true, help: "Keep the parent.")
  static let files = Argument.many("FILE", minimum: 1, help: "The inputs.")
  let parsed: ParsedArguments
  init(parsing arguments: ParsedArguments) throws { parsed = arguments }
  func run(_ context: CommandContext) async throws -> ExitCode {
    context.standardOutput.write("files=\(parsed[Self.files])\n")
    return .success
  }
}

private struct Group: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "group", abstract: "A group.", subcommands: [Leaf.self])
}

private struct Leaf: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "leaf", abstract: "A leaf.",
    arguments: [a, b])
  static let a = Argument.one("A", help: "First.")
  static let b = Argument.optional("B", help: "Second.")
  init(parsing arguments: ParsedArguments) throws {}
  func run(_ context: CommandContext) async throws -> ExitCode { .success }
}

private func parse(_ words: [String]) throws -> ParsedArguments {
  guard case .run(_, let parsed) = try ArgumentParser(root: Root.self).parse(words) else {
    Issue.record("expected a command to run for \(words)")
    return ParsedArguments(commandPath: [])
  }
  return parsed
}

private func usageError(_ words: [String]) -> UsageError? {
  do {
    _ = try ArgumentParser(root: Root.self).parse(words)
    return nil
  } catch let error as UsageError {
    return error
  } catch {
    return nil
  }
}

@Suite struct ArgumentParserTests {
  @Test func longOptionTakesSeparateOrInlineValue() throws {
    #expect(try parse(["convert", "--to", "xml", "a"])[Convert.to] == "xml")
    #expect(try parse(["convert", "--to=json", "a"])[Convert.to] == "json")
    #expect(try parse(["convert", "--to=", "a"])[Convert.to] == "")
  }

  @Test func shortOptionTakesSeparateOrAttachedValue() throws {
    #expect(try parse(["convert", "-o", "out.zip", "a"])[Convert.output] == "out.zip")
    #expect(try parse(["convert", "-oout.zip", "a"])[Convert.output] == "out.zip")
  }

  @Test func clusteredShortFlagsAreEachSet() throws {
    let parsed = try parse(["convert", "-qf", "a"])
    #expect((try parsed[Convert.quiet]))
    #expect((try parsed[Convert.force]))
  }

  @Test func clusterMayEndInAnOptionWithAValue() throws {
    let parsed = try parse(["convert", "-qoOUT", "a"])
    #expect((try parsed[Convert.quiet]))
    #expect(try parsed[Convert.output] == "OUT")
  }

  @Test func repeatedOptionKeepsEveryValueInOrder() throws {
    let parsed = try parse(["convert", "-D", "A=1", "--define", "B=2", "-DC=3", "x"])
    #expect((try parsed[Convert.define]) == ["A=1", "B=2", "C=3"])
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try parse(["convert", "--", "--force", "-q"])
    #expect(!(try parsed[Convert.force]))
    #expect(parsed[Convert.files] == ["--force", "-q"])
  }

  @Test func singleDashIsAnArgument() throws {
    #expect(try parse(["convert", "-"])[Convert.files] == ["-"])
  }

  @Test func optionsAndArgumentsMayInterleave() throws {
    let parsed = try parse(["convert", "a", "--force", "b", "--to", "xml", "c"])
    #expect(parsed[Convert.files] == ["a", "b", "c"])
    #expect((try parsed[Convert.force]))
  }

  @Test func nestedSubcommandsAssignOptionalArguments() throws {
    let one = try parse(["group", "leaf", "x"])
    #expect(one[Leaf.a] == "x")
    #expect(one[Leaf.b] == nil)
    let two = try parse(["group", "leaf", "x", "y"])
    #expect(two[Leaf.b] == "y")
    #expect(two.commandPath == ["tool", "group", "leaf"])
  }

  @Test func unknownLongOptionIsNamed() {
    #expect(usageError(["convert", "--nope", "a"])?.message == "unknown option '--nope'")
  }

  @Test func unknownShortOptionIsNamed() {
    #expect(usageError(["convert", "-z", "a"])?.message == "unknown option '-z'")
    #expect(usageError(["convert", "-qz", "a"])?.message == "unknown option '-z' in '-qz'")
  }

  @Test func unknownRootOptionIsNamed() {
    #expect(usageError(["--nope"])?.message == "unknown option '--nope'")
  }

  @Test func missingValueIsNamed() {
    #expect(usageError(["convert", "a", "--to"])?.message == "missing value for option '--to'")
    #expect(usageError(["convert", "a", "-o"])?.message == "missing value for option '-o'")
  }

  @Test func unknownSubcommandIsNamed() {
    let error = usageError(["frobnicate"])
    #expect(error?.message == "unknown subcommand 'frobnicate'")
    #expect(error?.commandPath == ["tool"])
    #expect(usageError(["group", "twig"])?.commandPath == ["tool", "group"])
  }

  @Test func strayArgumentIsNamed() {
    #expect(usageError(["group", "leaf", "x", "y", "z"])?.message == "unexpected argument 'z'")
  }

  @Test func missingArgumentIsNamed() {
    #expect(usageError(["convert", "--force"])?.message == "missing argument FILE")
    #expect(usageError(["group", "leaf"])?.message == "missing argument A")
  }

  @Test func flagGivenAValueIsRefused() {
    #expect(
      usageError(["convert", "--force=yes", "a"])?.message
        == "option '--force' does not take a value")
  }

  @Test func nonRepeatableOptionGivenTwiceIsRefused() {
    #expect(
      usageError(["convert", "--to", "a", "--to", "b", "x"])?.message
        == "option '--to' given more than once")
  }

  @Test func helpAnywhereBeforeDoubleDashAsksForHelp() throws {
    for words in [
      ["--help"], ["-h"], ["convert", "--to", "x", "-h"], ["help", "convert"], ["group", "--help"],
    ] {
      guard case .help = try ArgumentParser(root: Root.self).parse(words) else {
        Issue.record("expected help for \(words)")
        continue
      }
    }
  }

  @Test func helpForNestedCommandReachesIt() throws {
    guard
      case .help(let path) = try ArgumentParser(root: Root.self).parse(["help", "group", "leaf"])
    else {
      Issue.record("expected help")
      return
    }
    #expect(path.map { $0.configuration.name } == ["tool", "group", "leaf"])
  }

  @Test func typedOptionsConvertAndNameTheOptionOnFailure() throws {
    let level = Option.integer("level", in: 0...9, help: "")
    #expect(throws: UsageError.self) { try parse(["convert", "--level", "12", "a"])[level] }
    #expect(try parse(["convert", "--level", "9", "a"])[level] == 9)
    let bytes = Option.byteCount("level", help: "")
    #expect(try parse(["convert", "--level", "2G", "a"])[bytes] == 2 << 30)
    #expect(try parse(["convert", "--level", "512", "a"])[bytes] == 512)
    #expect(throws: UsageError.self) { try parse(["convert", "--level", "lots", "a"])[bytes] }
    let seconds = Option.seconds("level", help: "")
    #expect(try parse(["convert", "--level", "0.5", "a"])[seconds] == .milliseconds(500))
    #expect(try parse(["convert", "a"])[seconds] == nil)
    #expect(throws: UsageError.self) { try parse(["convert", "--level", "-1", "a"])[seconds] }
  }

  @Test func choiceOptionsListTheChoicesAndSuggestTheClosest() throws {
    enum Shape: String, CaseIterable, Sendable { case circle, square }
    let shape = Option.choice("to", valueName: "SHAPE", of: Shape.self, help: "")
    #expect(try parse(["convert", "--to", "square", "a"])[shape] == .square)
    do {
      _ = try parse(["convert", "--to", "sqaure", "a"])[shape]
      Issue.record("expected a usage error")
    } catch let error as UsageError {
      #expect(
        error.message
          == "invalid value 'sqaure' for '--to': expected one of circle, square; did you mean 'square'?"
      )
    }
  }

  @Test func negatableFlagsTakeBothFormsAndRefuseBoth() throws {
    #expect(try parse(["convert", "a"])[Convert.keepParent] == true)
    #expect(try parse(["convert", "--no-keep-parent", "a"])[Convert.keepParent] == false)
    #expect(try parse(["convert", "--keep-parent", "a"])[Convert.keepParent] == true)
    #expect(throws: UsageError.self) {
      try parse(["convert", "--keep-parent", "--no-keep-parent", "a"])[Convert.keepParent]
    }
    #expect(HelpFormatter.help(for: [Root.self, Convert.self]).contains("--[no-]keep-parent"))
  }

  @Test func misspeltNamesGetTheClosestSuggestions() {
    #expect(
      usageError(["convert", "--froce", "a"])?.message
        == "unknown option '--froce'; did you mean '--force'?")
    #expect(
      usageError(["cnovert"])?.message == "unknown subcommand 'cnovert'; did you mean 'convert'?")
    #expect(
      usageError(["group", "lef"])?.message == "unknown subcommand 'lef'; did you mean 'leaf'?")
    #expect(usageError(["--hepl"])?.message == "unknown option '--hepl'; did you mean '--help'?")
  }

  @Test func usageLineListsOptionsAndArguments() {
    let usage = HelpFormatter.usage(for: [Root.self, Convert.self])
    #expect(usage.hasPrefix("USAGE: tool convert [--to FORMAT] [-o, --output OUT]"))
    #expect(usage.hasSuffix("FILE…"))
  }
}

@Suite struct FolioMainTests {
  private func run(_ words: [String]) async -> (Int32, String, String) {
    let out = OutputSink.buffer()
    let err = OutputSink.buffer()
    let context = CommandContext(standardOutput: out, standardError: err, currentDirectory: "/")
    let status = await FolioMain.run(words, context: context, root: Root.self)
    return (status, out.text, err.text)
  }

  @Test func usageErrorExits64WithUsageOnStandardError() async {
    let (status, out, err) = await run(["convert", "--nope", "a"])
    #expect(status == 64)
    #expect(out.isEmpty)
    #expect(err.contains("error: unknown option '--nope'"))
    #expect(err.contains("USAGE: tool convert"))
  }

  @Test func helpGoesToStandardOutputAndExits0() async {
    let (status, out, err) = await run(["help", "convert"])
    #expect(status == 0)
    #expect(err.isEmpty)
    #expect(out.contains("OVERVIEW: Convert files."))
    #expect(out.contains("--to FORMAT"))
  }

  @Test func versionIsPrinted() async {
    let (status, out, _) = await run(["--version"])
    #expect(status == 0)
    #expect(out == "folio \(FolioMain.version)\n")
  }

  @Test func commandRunsWithItsArguments() async {
    let (status, out, _) = await run(["convert", "a", "b"])
    #expect(status == 0)
    #expect(out == "files=[\"a\", \"b\"]\n")
  }

  @Test func realRootRefusesUnknownOption() async {
    let out = OutputSink.buffer()
    let err = OutputSink.buffer()
    let context = CommandContext(standardOutput: out, standardError: err, currentDirectory: "/")
    let status = await FolioMain.run(["--nope"], context: context)
    #expect(status == 64)
    #expect(err.text.contains("'--nope'"))
  }
}
