/// What the user typed for one command, checked against its configuration.
///
/// Lookups use the names from the configuration: an option's long name, an
/// argument's name. Conversions that can fail throw ``UsageError`` naming the
/// option and the bad value.
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

  /// Whether a flag was given.
  ///
  /// - Parameter long: The flag's long name.
  /// - Returns: `true` when given at least once.
  public func flag(_ long: String) -> Bool { (flagCounts[long] ?? 0) > 0 }

  /// How many times a flag was given (`-vv`).
  ///
  /// - Parameter long: The flag's long name.
  /// - Returns: The count, 0 when absent.
  public func flagCount(_ long: String) -> Int { flagCounts[long] ?? 0 }

  /// The value of an option, the last one if it repeats.
  ///
  /// - Parameter long: The option's long name.
  /// - Returns: The value, or `nil` when absent.
  public func value(_ long: String) -> String? { optionValues[long]?.last }

  /// Every value of a repeatable option, in the order given.
  ///
  /// - Parameter long: The option's long name.
  /// - Returns: The values, empty when absent.
  public func values(_ long: String) -> [String] { optionValues[long] ?? [] }

  /// The value of a single positional argument.
  ///
  /// - Parameter name: The argument's name.
  /// - Returns: The value, or `nil` when an optional argument was not given.
  public func argument(_ name: String) -> String? { argumentValues[name]?.first }

  /// The values of a variadic positional argument.
  ///
  /// - Parameter name: The argument's name.
  /// - Returns: The values, in order.
  public func arguments(_ name: String) -> [String] { argumentValues[name] ?? [] }

  /// The value of an option as an integer within a range.
  ///
  /// - Parameters:
  ///   - long: The option's long name.
  ///   - range: The values allowed.
  /// - Returns: The integer, or `nil` when the option is absent.
  /// - Throws: ``UsageError`` naming the option when the value is not an integer in `range`.
  public func integer(_ long: String, in range: ClosedRange<Int>) throws -> Int? {
    guard let text = value(long) else { return nil }
    guard let number = Int(text), range.contains(number) else {
      throw UsageError(
        "invalid value '\(text)' for '--\(long)': expected an integer from \(range.lowerBound) to \(range.upperBound)"
      )
    }
    return number
  }

  /// The value of an option as a duration in seconds (`30`, `0.5`).
  ///
  /// - Parameters:
  ///   - long: The option's long name.
  ///   - maximum: The longest duration allowed, in seconds.
  /// - Returns: The duration, or `nil` when the option is absent.
  /// - Throws: ``UsageError`` naming the option when the value is not a number of
  ///   seconds from 0 to `maximum`.
  public func seconds(_ long: String, maximum: Double = 86_400 * 365) throws -> Duration? {
    guard let text = value(long) else { return nil }
    guard let seconds = Double(text), seconds >= 0, seconds <= maximum else {
      throw UsageError("invalid value '\(text)' for '--\(long)': expected a number of seconds")
    }
    return .milliseconds(Int64(seconds * 1000))
  }

  /// The value of an option as a byte count (`500M`, `2G`, `1048576`).
  ///
  /// - Parameter long: The option's long name.
  /// - Returns: The count, or `nil` when the option is absent.
  /// - Throws: ``UsageError`` naming the option when the value is not a size.
  public func byteCount(_ long: String) throws -> Int64? {
    guard let text = value(long) else { return nil }
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

  /// The value of an option, which must be one of a fixed set of words.
  ///
  /// - Parameters:
  ///   - long: The option's long name.
  ///   - choices: The words allowed.
  /// - Returns: The word, or `nil` when the option is absent.
  /// - Throws: ``UsageError`` naming the option and the allowed words.
  public func choice(_ long: String, from choices: [String]) throws -> String? {
    guard let text = value(long) else { return nil }
    guard choices.contains(text) else {
      throw UsageError(
        "invalid value '\(text)' for '--\(long)': expected one of \(choices.joined(separator: ", "))"
      )
    }
    return text
  }
}
