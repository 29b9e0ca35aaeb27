/// What a command is called, what it takes, and the help text beside each part.
///
/// A command declares its options and arguments here, next to their help; the
/// parser, the usage line and `--help` are all derived from this one value.
public struct CommandConfiguration: Sendable {
  /// The word that selects the command (`export`, `lint`).
  public var name: String
  /// One line for listings and the top of `--help`.
  public var abstract: String
  /// Longer help printed after the options, if any.
  public var discussion: String
  /// The options the command accepts (`--help` is added by the parser).
  public var options: [OptionSpec]
  /// The positional arguments, in order.
  public var arguments: [ArgumentSpec]
  /// Nested commands (`folio plist lint`).
  public var subcommands: [any ParsableCommand.Type]

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - name: The word that selects the command.
  ///   - abstract: One line for listings.
  ///   - discussion: Longer help.
  ///   - options: The options the command accepts.
  ///   - arguments: The positional arguments, in order.
  ///   - subcommands: Nested commands.
  public init(
    name: String, abstract: String, discussion: String = "", options: [OptionSpec] = [],
    arguments: [ArgumentSpec] = [], subcommands: [any ParsableCommand.Type] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.options = options
    self.arguments = arguments
    self.subcommands = subcommands
  }
}

/// One option: a flag (`--force`) or an option with a value (`--to TYPE`).
public struct OptionSpec: Sendable {
  /// Whether the option takes a value.
  public enum Kind: Sendable {
    /// A switch with no value.
    case flag
    /// An option followed by a value, named in help by `valueName`.
    case value(valueName: String)
  }

  /// The long name without dashes (`output`); also the key for lookups.
  public var long: String
  /// The one-letter name without the dash (`o`), if any.
  public var short: Character?
  /// Flag or valued option.
  public var kind: Kind
  /// Whether the option may be given more than once (`-D A=1 -D B=2`).
  public var repeatable: Bool
  /// One line of help.
  public var help: String

  /// Creates a flag.
  ///
  /// - Parameters:
  ///   - long: The long name without dashes.
  ///   - short: The one-letter name, if any.
  ///   - help: One line of help.
  /// - Returns: The option.
  public static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(long: long, short: short, kind: .flag, repeatable: true, help: help)
  }

  /// Creates an option that takes a value.
  ///
  /// - Parameters:
  ///   - long: The long name without dashes.
  ///   - short: The one-letter name, if any.
  ///   - valueName: How help names the value (`FILE`).
  ///   - repeatable: Whether the option may repeat; if not, a repeat is a usage error.
  ///   - help: One line of help.
  /// - Returns: The option.
  public static func value(
    _ long: String, short: Character? = nil, valueName: String, repeatable: Bool = false,
    help: String
  ) -> OptionSpec {
    OptionSpec(
      long: long, short: short, kind: .value(valueName: valueName), repeatable: repeatable,
      help: help)
  }

  var takesValue: Bool {
    if case .value = kind { return true }
    return false
  }

  /// `-o, --output FILE` as help shows it.
  var synopsis: String {
    var text = short.map { "-\($0), " } ?? ""
    text += "--\(long)"
    if case .value(let valueName) = kind { text += " \(valueName)" }
    return text
  }
}

/// One positional argument.
public struct ArgumentSpec: Sendable {
  /// How many values the argument takes.
  public enum Arity: Sendable {
    /// Exactly one value.
    case one
    /// Zero or one value.
    case optional
    /// At least `minimum` values; only the last argument may be variadic.
    case many(minimum: Int)
  }

  /// The name in help and the key for lookups (`FILE`).
  public var name: String
  /// How many values it takes.
  public var arity: Arity
  /// One line of help.
  public var help: String

  /// Creates a positional argument.
  ///
  /// - Parameters:
  ///   - name: The name in help and the key for lookups.
  ///   - arity: How many values it takes.
  ///   - help: One line of help.
  public init(_ name: String, arity: Arity = .one, help: String) {
    self.name = name
    self.arity = arity
    self.help = help
  }

  var synopsis: String {
    switch arity {
    case .one: name
    case .optional: "[\(name)]"
    case .many(let minimum): minimum > 0 ? "\(name)…" : "[\(name)…]"
    }
  }
}
