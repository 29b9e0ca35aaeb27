/// Something an archive does that peers accept and Folio reads as they do, but that a user
/// may want to know about: names written with Windows separators, bytes that belong to no
/// entry.
public struct ArchiveWarning: Hashable, Sendable, CustomStringConvertible {
  /// A stable code for scripts (`windows-separators`).
  public var code: String
  /// What was found and how it was read, naming the archive.
  public var message: String

  /// Creates a warning.
  ///
  /// - Parameters:
  ///   - code: A stable code.
  ///   - message: What was found and how it was read.
  public init(code: String, message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(message) [\(code)]" }
}
