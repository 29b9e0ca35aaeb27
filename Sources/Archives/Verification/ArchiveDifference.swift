/// One way an archive and a tree differ, as `folio verify --against` prints it.
public struct ArchiveDifference: Hashable, Sendable, CustomStringConvertible {
  /// The path below the tree's root (`pages/a.txt`).
  public var path: String
  /// What differs, in words (`size 12 in the archive, 10 in the folder`).
  public var message: String

  /// Creates a difference.
  ///
  /// - Parameters:
  ///   - path: The path below the tree's root.
  ///   - message: What differs.
  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  public var description: String { "\(EntryName(path).display): \(message)" }
}
