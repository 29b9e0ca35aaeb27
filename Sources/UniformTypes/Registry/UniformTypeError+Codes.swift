extension UniformTypeErrorDomain.Code {
  /// A `-D` definition is not of the form `NAME=VALUE`.
  public static let invalidDefinition = Self("invalid-definition")
  /// A declaration file or directory cannot be read.
  public static let unreadableDeclarations = Self("unreadable-declarations")
  /// A path to identify does not exist.
  public static let noSuchItem = Self("no-such-item")
  /// A file's content was needed to identify it and cannot be read.
  public static let unreadableContent = Self("unreadable-content")
  /// A type named by the user is not known to the registry.
  public static let unknownType = Self("unknown-type")
  /// A build template could not be preprocessed (an `#include`, an unbalanced `#endif`).
  public static let preprocessingFailed = Self("preprocessing-failed")
  /// A validation configuration file or baseline is malformed or names an unknown rule.
  public static let invalidConfiguration = Self("invalid-configuration")
  /// A validation configuration file or baseline is past its size or count limit.
  public static let configurationTooLarge = Self("configuration-too-large")
  /// A schema could not be compiled or applied.
  public static let schemaFailure = Self("schema-failure")
}
