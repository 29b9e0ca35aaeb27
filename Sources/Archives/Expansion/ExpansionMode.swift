/// What an expansion does when its destination already exists.
public enum ExpansionMode: String, Hashable, Sendable, CaseIterable {
  /// Refuse (``PackagingErrorDomain/Code/destinationExists``) and touch nothing.
  case fresh
  /// Replace the destination atomically: the new tree is swapped in, the old one removed.
  case replace
  /// Swap in the new tree, but keep every file whose bytes did not change as
  /// it was (same inode, same modification time); files the archive no longer
  /// has are gone.
  case update
}
