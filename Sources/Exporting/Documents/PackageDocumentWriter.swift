import FolioSystem
public import Foundation
public import Packaging

/// A ready-made writer for package documents: turns a snapshot into a ``PackageNode``
/// tree with a closure and writes it.
///
/// Without `previous`, or when the destination does not exist yet, the whole
/// tree is written into a hidden folder beside the destination and renamed into
/// place. With `previous`, the writer builds the previous tree too and updates
/// the existing package in place: each changed file is written atomically,
/// unchanged files are left alone, and files the new snapshot no longer has are
/// removed. Progress counts one unit per file written.
public struct PackageDocumentWriter<Snapshot: Sendable>: DocumentWriter {
  /// Turns a snapshot into the package's root node.
  public var makeTree: @Sendable (Snapshot) throws -> PackageNode
  /// Whether an existing destination may be replaced by a full write.
  public var overwrite: Bool

  /// Creates a writer.
  ///
  /// - Parameters:
  ///   - overwrite: Whether an existing destination may be replaced when there is no `previous`.
  ///   - makeTree: Turns a snapshot into the package's root node (a folder).
  public init(
    overwrite: Bool = false, _ makeTree: @escaping @Sendable (Snapshot) throws -> PackageNode
  ) {
    self.overwrite = overwrite
    self.makeTree = makeTree
  }

  /// Writes `snapshot` as a package at `destination`.
  ///
  /// - Parameters:
  ///   - snapshot: The state to store.
  ///   - destination: The package folder.
  ///   - previous: The snapshot last written there, to write only what changed.
  ///   - progress: One unit per file written.
  /// - Throws: ``ExportError`` naming the file that could not be written, or `output-exists`.
  public func write(
    snapshot: Snapshot, to destination: URL, previous: Snapshot?, progress: consuming Subprogress
  ) async throws {
    let makeTree = self.makeTree
    let overwrite = self.overwrite
    let tree = try makeTree(snapshot)
    let previousTree = try previous.map(makeTree)
    let reporter = progress.start(totalCount: 1)
    _ = try await runBlocking(cancelling: reporter) {
      var writer = PackageTreeWriting(reporter: reporter)
      if let previousTree, AtomicOutput.isDirectory(destination) {
        try writer.update(destination, from: previousTree, to: tree, display: destination.path)
      } else {
        try writer.writeAll(tree, to: destination, overwrite: overwrite, display: destination.path)
      }
      return writer.summary
    }
  }
}
