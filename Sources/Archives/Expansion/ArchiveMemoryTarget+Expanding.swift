package import FoundationEssentials
package import ProgressReporting

extension ArchiveMemoryTarget {
  /// Expands an archive into memory under the rules `expand` applies: the tree a file
  /// wrapper read from the archive stands for.
  ///
  /// - Parameters:
  ///   - url: The archive.
  ///   - policy: The expansion's safety rules.
  ///   - memoryLimit: The most file bytes held.
  ///   - reporter: Progress, per entry and per byte.
  /// - Returns: The archive's top item (its single top folder when it has one, otherwise its
  ///   root) and that item's name.
  /// - Throws: ``PackagingError`` as `expand` does, or `archive-too-large-for-memory`.
  package static func expand(
    _ url: URL, policy: ExpansionPolicy, memoryLimit: Int64, reporter: ProgressManager?
  ) throws -> (top: Item, name: String) {
    let source = try ArchiveOpener.open(.file(url), policy: policy)
    let target = ArchiveMemoryTarget(limit: memoryLimit, archiveName: url.path)
    var run = try ExpansionRun(judging: source, staging: target, policy: policy, reporter: reporter)
    let top = try run.expandAll()
    let item = top.flatMap { target.lookup([$0]) } ?? target.root
    return (item, top ?? url.deletingPathExtension().lastPathComponent)
  }
}
