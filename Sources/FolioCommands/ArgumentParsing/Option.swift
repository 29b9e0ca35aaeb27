/// An option declared once: how help, completions and the man page show it
/// (its ``OptionSpec``) and how a command reads its value, typed.
///
/// A command declares each option as a static value, lists it in its
/// ``CommandConfiguration``, and reads it back through the same value, so no
/// option is ever looked up by a string that could be misspelt:
///
/// ```swift
/// static let force = Option.flag("force", short: "f", help: "Replace an existing OUT.")
/// static let format = Option.choice(
///   "format", valueName: "FORMAT", ArchiveFormat.allCases, name: \.name, help: "…")
/// …
/// force = try arguments[Self.force]        // Bool
/// format = try arguments[Self.format]      // ArchiveFormat?
/// ```
public struct Option<Value: Sendable>: OptionDeclaration {
  /// The option's spelling, help and completion.
  public let spec: OptionSpec
  let read: @Sendable (ParsedArguments) throws -> Value

  /// Creates an option from its description and a reader.
  ///
  /// - Parameters:
  ///   - spec: The option's spelling, help and completion.
  ///   - read: Reads the value from what the user typed; throws ``UsageError``.
  public init(spec: OptionSpec, read: @escaping @Sendable (ParsedArguments) throws -> Value) {
    self.spec = spec
    self.read = read
  }

  /// The same option, read through a conversion (`String?` into a typed value).
  ///
  /// - Parameter transform: Converts the value; throws ``UsageError`` naming the option.
  /// - Returns: The option with the converted value.
  public func map<Other: Sendable>(
    _ transform: @escaping @Sendable (Value) throws -> Other
  ) -> Option<Other> {
    let read = self.read
    return Option<Other>(spec: spec) { try transform(read($0)) }
  }
}

/// What every option declaration shows, whatever its value type; lets one
/// configuration list options of different types.
public protocol OptionDeclaration: Sendable {
  /// The option's spelling, help and completion.
  var spec: OptionSpec { get }
}

extension ParsedArguments {
  /// The value of a declared option.
  ///
  /// - Parameter option: The option, as the command declared it.
  /// - Returns: Its typed value.
  /// - Throws: ``UsageError`` naming the option when the value does not convert.
  public subscript<Value>(_ option: Option<Value>) -> Value {
    get throws { try option.read(self) }
  }

  /// The value of a declared positional argument.
  ///
  /// - Parameter argument: The argument, as the command declared it.
  /// - Returns: Its value.
  public subscript<Value>(_ argument: Argument<Value>) -> Value {
    argument.read(self)
  }
}

extension Option where Value == Bool {
  /// A switch with no value: `true` when given.
  ///
  /// - Parameters:
  ///   - long: The long name without dashes.
  ///   - short: The one-letter name, if any.
  ///   - help: One line of help.
  /// - Returns: The option.
  public static func flag(_ long: String, short: Character? = nil, help: String) -> Self {
    Option(spec: OptionSpec(long: long, short: short, kind: .flag, repeatable: true, help: help)) {
      $0.flagCount(long) > 0
    }
  }

  /// A switch with a `--no-` form (`--keep-parent`, `--no-keep-parent`).
  ///
  /// - Parameters:
  ///   - long: The long name without dashes or `no-`.
  ///   - default: The value when neither form is given.
  ///   - help: One line of help, saying what the default is.
  /// - Returns: The option; giving both forms is a usage error.
  public static func negatable(_ long: String, default: Bool, help: String) -> Self {
    Option(
      spec: OptionSpec(long: long, short: nil, kind: .negatableFlag, repeatable: true, help: help)
    ) { arguments in
      let (on, off) = (arguments.flagCount(long) > 0, arguments.flagCount("no-" + long) > 0)
      if on && off {
        throw UsageError("'--\(long)' and '--no-\(long)' contradict each other")
      }
      return on ? true : off ? false : `default`
    }
  }
}

extension Option where Value == String? {
  /// An option with a value, which may be absent.
  ///
  /// - Parameters:
  ///   - long: The long name without dashes.
  ///   - short: The one-letter name, if any.
  ///   - valueName: How help names the value (`FILE`).
  ///   - completion: What a shell completes the value with.
  ///   - help: One line of help.
  /// - Returns: The option; given twice, it is a usage error.
  public static func string(
    _ long: String, short: Character? = nil, valueName: String,
    completion: OptionSpec.Completion = .none, help: String
  ) -> Self {
    let spec = OptionSpec(
      long: long, short: short, kind: .value(valueName: valueName), repeatable: false,
      help: help, completion: completion)
    return Option(spec: spec) { $0.value(long) }
  }

  /// An option naming a file or folder (shells complete it with paths).
  ///
  /// - Parameters:
  ///   - long: The long name without dashes.
  ///   - short: The one-letter name, if any.
  ///   - valueName: How help names the value (`OUT`).
  ///   - directory: Whether it names a folder.
  ///   - help: One line of help.
  /// - Returns: The option.
  public static func path(
    _ long: String, short: Character? = nil, valueName: String, directory: Bool = false,
    help: String
  ) -> Self {
    string(
      long, short: short, valueName: valueName, completion: directory ? .directory : .file,
      help: help)
  }
}

extension Option where Value == [String] {
  /// An option that may be given several times; its values in order.
  ///
  /// - Parameters:
  ///   - long: The long name without dashes.
  ///   - short: The one-letter name, if any.
  ///   - valueName: How help names the value.
  ///   - completion: What a shell completes the value with.
  ///   - help: One line of help.
  /// - Returns: The option.
  public static func repeating(
    _ long: String, short: Character? = nil, valueName: String,
    completion: OptionSpec.Completion = .none, help: String
  ) -> Self {
    let spec = OptionSpec(
      long: long, short: short, kind: .value(valueName: valueName), repeatable: true, help: help,
      completion: completion)
    return Option(spec: spec) { $0.values(long) }
  }
}

extension Option where Value == Int? {
  /// An integer option within a range.
  ///
  /// - Parameters:
  ///   - long: The long name without dashes.
  ///   - short: The one-letter name, if any.
  ///   - valueName: How help names the value (`N`).
  ///   - range: The values allowed.
  ///   - help: One line of help.
  /// - Returns: The option; a value outside `range` is a usage error.
  public static func integer(
    _ long: String, short: Character? = nil, valueName: String = "N", in range: ClosedRange<Int>,
    help: String
  ) -> Self {
    Option<String?>.string(long, short: short, valueName: valueName, help: help).map { text in
      guard let text else { return nil }
      guard let number = Int(text), range.contains(number) else {
        throw UsageError(
          "invalid value '\(text)' for '--\(long)': expected an integer from \(range.lowerBound) to \(range.upperBound)"
        )
      }
      return number
    }
  }
}

extension Option where Value == Duration? {
  /// A duration in seconds (`30`, `0.5`).
  ///
  /// - Parameters:
  ///   - long: The long name without dashes.
  ///   - maximum: The longest duration allowed, in seconds.
  ///   - help: One line of help.
  /// - Returns: The option.
  public static func seconds(
    _ long: String, maximum: Double = 86_400 * 365, help: String
  ) -> Self {
    Option<String?>.string(long, valueName: "SECONDS", help: help).map { text in
      guard let text else { return nil }
      guard let seconds = Double(text), seconds >= 0, seconds <= maximum else {
        throw UsageError("invalid value '\(text)' for '--\(long)': expected a number of seconds")
      }
      return .milliseconds(Int64(seconds * 1000))
    }
  }
}

extension Option where Value == Int64? {
  /// A byte count (`500M`, `2G`, `1048576`).
  ///
  /// - Parameters:
  ///   - long: The long name without dashes.
  ///   - help: One line of help.
  /// - Returns: The option.
  public static func byteCount(_ long: String, help: String) -> Self {
    Option<String?>.string(long, valueName: "SIZE", help: help).map { text in
      guard let text else { return nil }
      let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
      var digits = Substring(text)
      var multiplier: Int64 = 1
      if let last = digits.last?.uppercased().first, let unit = units[last] {
        multiplier = unit
        digits = digits.dropLast()
      }
      guard let number = Int64(digits), number >= 0,
        number.multipliedReportingOverflow(by: multiplier).overflow == false
      else {
        throw UsageError(
          "invalid value '\(text)' for '--\(long)': expected a byte count such as 500M or 2G")
      }
      return number * multiplier
    }
  }
}

extension Option {
  /// An option whose value is one of a fixed set of words (an enum's cases).
  ///
  /// - Parameters:
  ///   - long: The long name without dashes.
  ///   - short: The one-letter name, if any.
  ///   - valueName: How help names the value.
  ///   - choices: The values allowed, in the order help lists them.
  ///   - name: The word for each value.
  ///   - help: One line of help.
  /// - Returns: The option; another word is a usage error that lists the
  ///   choices and suggests the closest.
  public static func choice<Choice: Sendable>(
    _ long: String, short: Character? = nil, valueName: String, _ choices: [Choice],
    name: @escaping @Sendable (Choice) -> String, help: String
  ) -> Self where Value == Choice? {
    let words = choices.map(name)
    let spec = OptionSpec(
      long: long, short: short, kind: .value(valueName: valueName), repeatable: false, help: help,
      completion: .values(words))
    return Option(spec: spec) { arguments in
      guard let text = arguments.value(long) else { return nil }
      guard let index = words.firstIndex(of: text) else {
        throw UsageError(
          "invalid value '\(text)' for '--\(long)': expected one of \(words.joined(separator: ", "))"
            + Suggestions.didYouMean(text, among: words))
      }
      return choices[index]
    }
  }

  /// An option whose value is one of a `RawRepresentable` enum's cases.
  ///
  /// - Parameters:
  ///   - long: The long name without dashes.
  ///   - short: The one-letter name, if any.
  ///   - valueName: How help names the value.
  ///   - type: The enum.
  ///   - help: One line of help.
  /// - Returns: The option.
  public static func choice<Choice: CaseIterable & RawRepresentable & Sendable>(
    _ long: String, short: Character? = nil, valueName: String, of type: Choice.Type,
    help: String
  ) -> Self where Value == Choice?, Choice.RawValue == String {
    choice(
      long, short: short, valueName: valueName, Array(Choice.allCases), name: \.rawValue,
      help: help)
  }
}
