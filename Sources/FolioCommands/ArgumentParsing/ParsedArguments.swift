/// What the user typed for one command, checked against its configuration.
///
/// Commands read it through their typed ``Option`` and ``Argument``
/// declarations (`arguments[Self.force]`), never by name; conversions that
/// can fail throw ``UsageError`` naming the option and the bad value.
public struct ParsedArguments: Sendable, Equatable {
  /// The command words from the root down (`["folio", "plist", "lint"]`).
  public var commandPath: [String]
  var flagCounts: [String: Int] = [:]
  var optionValues: [String: [String]] = [:]
  var argumentValues: [String: [String]] = [:]

  /// Creates parsed arguments; the parser fills them in.
  ///
  /// - Parameter commandPath: The command words from the root down.
  public init(commandPath: [String]) { self.commandPath = commandPath }

  /// How many times a flag (or its `--no-` form, `no-NAME`) was given.
  func flagCount(_ long: String) -> Int { flagCounts[long] ?? 0 }

  /// The value of an option, the last one if it repeats.
  func value(_ long: String) -> String? { optionValues[long]?.last }

  /// Every value of a repeatable option, in the order given.
  func values(_ long: String) -> [String] { optionValues[long] ?? [] }

  /// The value of a single positional argument.
  func positional(_ name: String) -> String? { argumentValues[name]?.first }

  /// The values of a variadic positional argument.
  func positionals(_ name: String) -> [String] { argumentValues[name] ?? [] }
}
