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
  /// Whether an `--output`/`-o` option exists, so a stray positional can say how to name the output.
  var outputOption: OptionSpec? { options.first { $0.long == "output" } }
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
    name: String, abstract: String, discussion: String = "",
    options: [any OptionDeclaration] = [], arguments: [any ArgumentDeclaration] = [],
    subcommands: [any ParsableCommand.Type] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.options = options.map(\.spec)
    self.arguments = arguments.map(\.spec)
    self.subcommands = subcommands
  }
}

/// One option as help, completions and the man page show it.
///
/// A flag (`--force`), a negatable flag (`--[no-]keep-parent`) or an option
/// with a value (`--to TYPE`). Commands declare options as typed ``Option``
/// values, which carry this description.
public struct OptionSpec: Sendable {
  /// Whether the option takes a value.
  public enum Kind: Sendable, Equatable {
    /// A switch with no value.
    case flag
    /// A switch with a `--no-` form.
    case negatableFlag
    /// An option followed by a value, named in help by `valueName`.
    case value(valueName: String)
  }

  /// What a shell offers when completing an option's value or an argument.
  public enum Completion: Sendable, Equatable {
    /// Nothing in particular (free text).
    case none
    /// File and folder names.
    case file
    /// Folder names.
    case directory
    /// One of these words.
    case values([String])
    /// A type: the identifiers and extensions `folio types list` prints.
    case type
  }

  /// The long name without dashes (`output`); also the key for lookups.
  public var long: String
  /// The one-letter name without the dash (`o`), if any.
  public var short: Character?
  /// Flag, negatable flag or valued option.
  public var kind: Kind
  /// Whether the option may be given more than once (`-D A=1 -D B=2`).
  public var repeatable: Bool
  /// One line of help.
  public var help: String
  /// What a shell completes the value with.
  public var completion: Completion

  /// Creates a description; commands use the typed ``Option`` builders instead.
  ///
  /// - Parameters:
  ///   - long: The long name without dashes.
  ///   - short: The one-letter name, if any.
  ///   - kind: Flag, negatable flag or valued option.
  ///   - repeatable: Whether the option may repeat.
  ///   - help: One line of help.
  ///   - completion: What a shell completes the value with.
  public init(
    long: String, short: Character?, kind: Kind, repeatable: Bool, help: String,
    completion: Completion = .none
  ) {
    self.long = long
    self.short = short
    self.kind = kind
    self.repeatable = repeatable
    self.help = help
    self.completion = completion
  }

  var takesValue: Bool {
    if case .value = kind { return true }
    return false
  }

  /// The value's name in help (`FILE`), or `nil` for flags.
  var valueName: String? {
    if case .value(let name) = kind { return name }
    return nil
  }

  /// Every long spelling the parser accepts (`keep-parent`, `no-keep-parent`).
  var longNames: [String] {
    kind == .negatableFlag ? [long, "no-" + long] : [long]
  }

  /// `-o, --output FILE` or `--[no-]keep-parent`, as help shows it.
  var synopsis: String {
    var text = short.map { "-\($0), " } ?? ""
    text += kind == .negatableFlag ? "--[no-]\(long)" : "--\(long)"
    if let valueName { text += " \(valueName)" }
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
  /// What a shell completes it with.
  public var completion: OptionSpec.Completion

  /// Creates a positional argument; commands use the typed ``Argument`` builders instead.
  ///
  /// - Parameters:
  ///   - name: The name in help and the key for lookups.
  ///   - arity: How many values it takes.
  ///   - help: One line of help.
  ///   - completion: What a shell completes it with.
  public init(
    _ name: String, arity: Arity = .one, help: String, completion: OptionSpec.Completion = .file
  ) {
    self.name = name
    self.arity = arity
    self.help = help
    self.completion = completion
  }

  var synopsis: String {
    switch arity {
    case .one: name
    case .optional: "[\(name)]"
    case .many(let minimum): minimum > 0 ? "\(name)…" : "[\(name)…]"
    }
  }
}
