public import FolioSystem

/// What an expansion does when its destination already exists.
@available(
  *, deprecated,
  message:
    "use ReplacePolicy, which every writer takes: .fresh is .refuse; .replace and .update keep their names"
)
public enum ExpansionMode: String, Hashable, Sendable, CaseIterable {
  /// Refuse (``PackagingErrorDomain/Code/outputExists``) and touch nothing.
  case fresh
  /// Replace the destination atomically: the new tree is swapped in, the old one removed.
  case replace
  /// Swap in the new tree, but keep every file whose bytes did not change as
  /// it was (same inode, same modification time); files the archive no longer
  /// has are gone.
  case update

  /// The policy that does what this mode did.
  public var replacePolicy: ReplacePolicy {
    switch self {
    case .fresh: .refuse
    case .replace: .replace
    case .update: .update
    }
  }
}
