public import ProgressReporting
public import PropertyLists

/// An exporter that can read its input as a ``FileWrapper`` tree.
///
/// When a plan expands an archive and then runs such an exporter (`Notebook.zip` →
/// notebook → text), it reads the archive straight into a tree, with the same rules as
/// `expand`, and hands the tree over: nothing is expanded to disk.
public protocol PackageTreeExporter: Exporter {
  /// Runs the export on a tree read from an archive.
  ///
  /// - Parameters:
  ///   - tree: The package, read from the archive the plan's previous step would expand.
  ///   - job: The input (its URL is the archive's), and where to write the output.
  ///   - progress: The share of the caller's progress this export reports on.
  /// - Returns: Warnings about the input or the output.
  /// - Throws: ``ExportError`` naming what failed.
  func export(tree: FileWrapper, _ job: ExportJob, progress: consuming Subprogress) async throws
    -> [Diagnostic]
}
