import FolioSystem

/// The duplicate-key warnings of one document: the first ``limit`` one by one, the rest
/// counted in one closing warning.
///
/// A crafted file may repeat one key a million times; a warning each would cost more
/// memory than the values themselves and bury every other message.
struct DuplicateKeyWarnings {
  /// How many repeated keys are warned about one by one.
  static let limit = 100

  /// The warnings kept, in the order met.
  private(set) var kept: [Diagnostic] = []
  /// Every repeated key met, kept or not.
  private(set) var count = 0

  /// Records one repeated key; the warning is made only while it will be kept.
  ///
  /// - Parameter warning: The warning naming the key and where it repeats.
  mutating func record(_ warning: @autoclosure () -> Diagnostic) {
    count += 1
    if count <= Self.limit { kept.append(warning()) }
  }

  /// The warnings to report: those kept, then one counting the rest.
  ///
  /// - Parameter file: The document's name, for the closing warning's location.
  /// - Returns: The warnings.
  func diagnostics(file: String) -> [Diagnostic] {
    guard count > Self.limit else { return kept }
    return kept + [
      Diagnostic(
        severity: .warning, code: Diagnostic.duplicateKeyCode,
        message:
          "\(count - Self.limit) more repeated keys are not listed (\(count) in all, the first \(Self.limit) above)",
        location: SourceLocation(file: file), hint: "remove the repeated entries")
    ]
  }
}
