/// Splits a command line into a command and its arguments.
///
/// The grammar is the common one: subcommand words first, then long options
/// (`--to TYPE`, `--to=TYPE`), short options (`-o OUT`, `-oOUT`, clustered
/// flags `-qf`), positional arguments, and `--` to end options. `-` alone is
/// a positional argument (standard input or output). `--help`/`-h` anywhere
/// before `--` asks for help on the command reached so far.
public struct ArgumentParser: Sendable {
  /// What a command line asks for.
  public enum Outcome: Sendable {
    /// Run this command with these arguments.
    case run(any ParsableCommand.Type, ParsedArguments)
    /// Print help for the command at this path.
    case help([any ParsableCommand.Type])
    /// Print the version.
    case version
    /// Print the manual page (`folio help --man`).
    case manual
  }

  /// The root command (`folio`).
  public let root: any ParsableCommand.Type

  /// Creates a parser for a command tree.
  ///
  /// - Parameter root: The root command.
  public init(root: any ParsableCommand.Type) { self.root = root }

  /// Parses a command line (without the program name).
  ///
  /// - Parameter arguments: The words after the program name.
  /// - Returns: What the command line asks for.
  /// - Throws: ``UsageError`` naming the bad token.
  public func parse(_ arguments: [String]) throws -> Outcome {
    var path: [any ParsableCommand.Type] = [root]
    var index = 0

    // Walk down the subcommand words; options before them belong to the group.
    while !path[path.count - 1].configuration.subcommands.isEmpty {
      let current = path[path.count - 1]
      guard index < arguments.count else { return .help(path) }
      let token = arguments[index]
      if token == "--help" || token == "-h" { return .help(path) }
      if token == "--version" && path.count == 1 { return .version }
      if path.count == 1 && token == "help" {
        let rest = Array(arguments[(index + 1)...])
        if rest == ["--man"] { return .manual }
        return .help(try helpPath(rest))
      }
      if token.hasPrefix("-") && token != "-" {
        let name = String(token.drop { $0 == "-" }.prefix { $0 != "=" })
        let known = ["help"] + (path.count == 1 ? ["version"] : [])
        throw UsageError(
          "unknown option '\(token)'" + Suggestions.didYouMean(name, among: known, prefix: "--"),
          path: path)
      }
      guard
        let next = current.configuration.subcommands.first(where: {
          $0.configuration.name == token
        })
      else {
        throw unknownSubcommand(token, path: path)
      }
      path.append(next)
      index += 1
    }

    let command = path[path.count - 1]
    let configuration = command.configuration
    var parsed = ParsedArguments(commandPath: path.map { $0.configuration.name })
    var positionals: [String] = []
    var optionsEnded = false

    func option(named long: String) -> OptionSpec? {
      configuration.options.first { $0.longNames.contains(long) }
    }
    func option(short: Character) -> OptionSpec? {
      configuration.options.first { $0.short == short }
    }
    func record(_ spec: OptionSpec, value: String?, token: String) throws {
      if let value {
        if !spec.repeatable && parsed.optionValues[spec.long] != nil {
          throw UsageError("option '--\(spec.long)' given more than once", path: path)
        }
        parsed.optionValues[spec.long, default: []].append(value)
      } else {
        parsed.flagCounts[spec.long, default: 0] += 1
      }
    }

    while index < arguments.count {
      let token = arguments[index]
      index += 1
      if optionsEnded || token == "-" || !token.hasPrefix("-") {
        positionals.append(token)
        continue
      }
      if token == "--" {
        optionsEnded = true
        continue
      }
      if token == "--help" || token == "-h" { return .help(path) }
      if token.hasPrefix("--") {
        let body = token.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
        guard let spec = option(named: name) else {
          let known = configuration.options.flatMap(\.longNames) + ["help"]
          throw UsageError(
            "unknown option '--\(name)'" + Suggestions.didYouMean(name, among: known, prefix: "--"),
            path: path)
        }
        if spec.takesValue {
          if let inlineValue {
            try record(spec, value: inlineValue, token: token)
          } else {
            guard index < arguments.count else {
              throw UsageError("missing value for option '--\(name)'", path: path)
            }
            try record(spec, value: arguments[index], token: token)
            index += 1
          }
        } else {
          if inlineValue != nil {
            throw UsageError("option '--\(name)' does not take a value", path: path)
          }
          // `--no-keep-parent` counts under its own name; the typed option reads both.
          parsed.flagCounts[name, default: 0] += 1
        }
        continue
      }
      // Short options: a cluster of flags, possibly ending in one that takes a value.
      var letters = Substring(token.dropFirst())
      while let letter = letters.first {
        letters = letters.dropFirst()
        guard let spec = option(short: letter) else {
          let shown = token.count == 2 ? token : "-\(letter)' in '\(token)"
          throw UsageError("unknown option '\(shown)'", path: path)
        }
        if spec.takesValue {
          if !letters.isEmpty {
            try record(spec, value: String(letters), token: token)
          } else {
            guard index < arguments.count else {
              throw UsageError("missing value for option '-\(letter)'", path: path)
            }
            try record(spec, value: arguments[index], token: token)
            index += 1
          }
          break
        }
        try record(spec, value: nil, token: token)
      }
    }

    try assign(positionals, to: configuration.arguments, in: &parsed, path: path)
    return .run(command, parsed)
  }

  /// Resolves `folio help plist convert` to the command path it names.
  private func helpPath(_ words: [String]) throws -> [any ParsableCommand.Type] {
    var path: [any ParsableCommand.Type] = [root]
    for word in words {
      guard
        let next = path[path.count - 1].configuration.subcommands.first(where: {
          $0.configuration.name == word
        })
      else {
        throw unknownSubcommand(word, path: path)
      }
      path.append(next)
    }
    return path
  }

  private func unknownSubcommand(_ word: String, path: [any ParsableCommand.Type]) -> UsageError {
    let names = path[path.count - 1].configuration.subcommands.map { $0.configuration.name }
    return UsageError(
      "unknown subcommand '\(word)'" + Suggestions.didYouMean(word, among: names), path: path)
  }

  /// Hands positional values to the declared arguments in order.
  private func assign(
    _ values: [String], to specs: [ArgumentSpec], in parsed: inout ParsedArguments,
    path: [any ParsableCommand.Type]
  ) throws {
    var remaining = values[...]
    for (position, spec) in specs.enumerated() {
      let later = specs[(position + 1)...]
      let reservedForLater = later.reduce(0) { total, next in
        switch next.arity {
        case .one: total + 1
        case .optional: total
        case .many(let minimum): total + minimum
        }
      }
      switch spec.arity {
      case .one:
        guard let value = remaining.first else {
          throw UsageError("missing argument \(spec.name)", path: path)
        }
        parsed.argumentValues[spec.name] = [value]
        remaining = remaining.dropFirst()
      case .optional:
        if remaining.count > reservedForLater, let value = remaining.first {
          parsed.argumentValues[spec.name] = [value]
          remaining = remaining.dropFirst()
        }
      case .many(let minimum):
        let take = max(0, remaining.count - reservedForLater)
        guard take >= minimum else {
          throw UsageError("missing argument \(spec.name)", path: path)
        }
        parsed.argumentValues[spec.name] = Array(remaining.prefix(take))
        remaining = remaining.dropFirst(take)
      }
    }
    if let stray = remaining.first {
      var message = "unexpected argument '\(stray)'"
      if let output = path.last?.configuration.outputOption, parsed.value(output.long) == nil {
        // `folio pack DIR out.zip`: the second word was meant as the output.
        let spelling = output.short.map { "-\($0)" } ?? "--\(output.long)"
        message += "; to name the output, use '\(spelling) \(stray)'"
      }
      throw UsageError(message, path: path)
    }
  }
}

extension UsageError {
  init(_ message: String, path: [any ParsableCommand.Type]) {
    self.init(message)
    commandPath = path.map { $0.configuration.name }
  }
}
