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
    options: [
      .value("to", valueName: "FORMAT", help: "The target format."),
      .value("output", short: "o", valueName: "OUT", help: "Where to write."),
      .value("define", short: "D", valueName: "NAME=VALUE", repeatable: true, help: "A variable."),
      .flag("force", short: "f", help: "Overwrite."),
      .flag("quiet", short: "q", help: "Say less."),
      .value("level", valueName: "N", help: "A level."),
    ],
    arguments: [ArgumentSpec("FILE", arity: .many(minimum: 1), help: "The inputs.")])
  let parsed: ParsedArguments
  init(parsing arguments: ParsedArguments) throws { parsed = arguments }
  func run(_ context: CommandContext) async throws -> ExitCode {
    context.standardOutput.write("files=\(parsed.arguments("FILE"))\n")
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
    arguments: [
      ArgumentSpec("A", help: "First."), ArgumentSpec("B", arity: .optional, help: "Second."),
    ])
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
    #expect(try parse(["convert", "--to", "xml", "a"]).value("to") == "xml")
    #expect(try parse(["convert", "--to=json", "a"]).value("to") == "json")
    #expect(try parse(["convert", "--to=", "a"]).value("to") == "")
  }

  @Test func shortOptionTakesSeparateOrAttachedValue() throws {
    #expect(try parse(["convert", "-o", "out.zip", "a"]).value("output") == "out.zip")
    #expect(try parse(["convert", "-oout.zip", "a"]).value("output") == "out.zip")
  }

  @Test func clusteredShortFlagsAreEachSet() throws {
    let parsed = try parse(["convert", "-qf", "a"])
    #expect(parsed.flag("quiet"))
    #expect(parsed.flag("force"))
  }

  @Test func clusterMayEndInAnOptionWithAValue() throws {
    let parsed = try parse(["convert", "-qoOUT", "a"])
    #expect(parsed.flag("quiet"))
    #expect(parsed.value("output") == "OUT")
  }

  @Test func repeatedOptionKeepsEveryValueInOrder() throws {
    let parsed = try parse(["convert", "-D", "A=1", "--define", "B=2", "-DC=3", "x"])
    #expect(parsed.values("define") == ["A=1", "B=2", "C=3"])
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try parse(["convert", "--", "--force", "-q"])
    #expect(!parsed.flag("force"))
    #expect(parsed.arguments("FILE") == ["--force", "-q"])
  }

  @Test func singleDashIsAnArgument() throws {
    #expect(try parse(["convert", "-"]).arguments("FILE") == ["-"])
  }

  @Test func optionsAndArgumentsMayInterleave() throws {
    let parsed = try parse(["convert", "a", "--force", "b", "--to", "xml", "c"])
    #expect(parsed.arguments("FILE") == ["a", "b", "c"])
    #expect(parsed.flag("force"))
  }

  @Test func nestedSubcommandsAssignOptionalArguments() throws {
    let one = try parse(["group", "leaf", "x"])
    #expect(one.argument("A") == "x")
    #expect(one.argument("B") == nil)
    let two = try parse(["group", "leaf", "x", "y"])
    #expect(two.argument("B") == "y")
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

  @Test func integerOutsideItsRangeIsNamed() throws {
    let parsed = try parse(["convert", "--level", "12", "a"])
    #expect(throws: UsageError.self) { try parsed.integer("level", in: 0...9) }
    #expect(try parse(["convert", "--level", "9", "a"]).integer("level", in: 0...9) == 9)
  }

  @Test func byteCountsTakeUnits() throws {
    #expect(try parse(["convert", "--level", "2G", "a"]).byteCount("level") == 2 << 30)
    #expect(try parse(["convert", "--level", "512", "a"]).byteCount("level") == 512)
    #expect(throws: UsageError.self) {
      try parse(["convert", "--level", "lots", "a"]).byteCount("level")
    }
  }

  @Test func secondsTakeFractionsAndRefuseNegatives() throws {
    #expect(try parse(["convert", "--level", "0.5", "a"]).seconds("level") == .milliseconds(500))
    #expect(try parse(["convert", "a"]).seconds("level") == nil)
    #expect(throws: UsageError.self) {
      try parse(["convert", "--level", "-1", "a"]).seconds("level")
    }
    #expect(throws: UsageError.self) {
      try parse(["convert", "--level", "soon", "a"]).seconds("level")
    }
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
