/// A positional argument declared once: its name and help (``ArgumentSpec``)
/// and its typed value.
///
/// ```swift
/// static let archive = Argument.one("ARCHIVE", help: "The archive to expand.")
/// …
/// archive = arguments[Self.archive]   // String
/// ```
public struct Argument<Value: Sendable>: Sendable {
  /// The argument's name, arity, help and completion.
  public let spec: ArgumentSpec
  let read: @Sendable (ParsedArguments) -> Value
}

extension Argument where Value == String {
  /// An argument that must be given once.
  ///
  /// - Parameters:
  ///   - name: The name in help (`ARCHIVE`).
  ///   - completion: What a shell completes it with (paths by default).
  ///   - help: One line of help.
  /// - Returns: The argument.
  public static func one(
    _ name: String, completion: OptionSpec.Completion = .file, help: String
  ) -> Self {
    Argument(spec: ArgumentSpec(name, arity: .one, help: help, completion: completion)) {
      $0.positional(name) ?? ""
    }
  }
}

extension Argument where Value == String? {
  /// An argument that may be left out.
  ///
  /// - Parameters:
  ///   - name: The name in help.
  ///   - completion: What a shell completes it with.
  ///   - help: One line of help.
  /// - Returns: The argument.
  public static func optional(
    _ name: String, completion: OptionSpec.Completion = .file, help: String
  ) -> Self {
    Argument(spec: ArgumentSpec(name, arity: .optional, help: help, completion: completion)) {
      $0.positional(name)
    }
  }
}

extension Argument where Value == [String] {
  /// An argument taking the remaining values (only the last argument may).
  ///
  /// - Parameters:
  ///   - name: The name in help (`FILE`).
  ///   - minimum: How many values are required.
  ///   - completion: What a shell completes them with.
  ///   - help: One line of help.
  /// - Returns: The argument.
  public static func many(
    _ name: String, minimum: Int, completion: OptionSpec.Completion = .file, help: String
  ) -> Self {
    Argument(
      spec: ArgumentSpec(
        name, arity: .many(minimum: minimum), help: help, completion: completion)
    ) { $0.positionals(name) }
  }
}

/// What every argument declaration shows, whatever its value type.
public protocol ArgumentDeclaration: Sendable {
  /// The argument's name, arity, help and completion.
  var spec: ArgumentSpec { get }
}

extension Argument: ArgumentDeclaration {}
