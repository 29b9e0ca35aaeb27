import FolioSystem
public import Foundation
public import Packaging

/// A ready-made reader for package documents: reads the folder as a lazy tree and
/// turns it into a snapshot with a closure.
///
/// ```swift
/// let reader = PackageDocumentReader { root in
///   let metadata = try root.node(at: "metadata.json")?.regularFileContents()
///   …
/// }
/// let snapshot = try await reader.read(from: url, progress: .untracked())
/// ```
///
/// The closure runs off the caller's task on a thread that may block; only the
/// files it asks for are read.
public struct PackageDocumentReader<Snapshot: Sendable>: DocumentReader {
  /// Turns the package's root node into a snapshot.
  public var makeSnapshot: @Sendable (PackageNode) throws -> Snapshot

  /// Creates a reader.
  ///
  /// - Parameter makeSnapshot: Turns the package's root node into a snapshot.
  public init(_ makeSnapshot: @escaping @Sendable (PackageNode) throws -> Snapshot) {
    self.makeSnapshot = makeSnapshot
  }

  /// Reads the package at `source`.
  ///
  /// - Parameters:
  ///   - source: The package folder.
  ///   - progress: Two units: the structure read, then the snapshot made.
  /// - Returns: The snapshot the closure made.
  /// - Throws: ``ExportError`` when the folder cannot be read; whatever the closure throws.
  public func read(from source: URL, progress: consuming Subprogress) async throws -> Snapshot {
    let reporter = progress.start(totalCount: 2)
    let makeSnapshot = self.makeSnapshot
    return try await runBlocking(cancelling: reporter) {
      let tree = try PackageTree(reading: source, displayName: source.lastPathComponent)
      reporter.complete(count: 1)
      try reporter.checkCancellation()
      let snapshot = try makeSnapshot(tree.root)
      reporter.complete(count: 1)
      return snapshot
    }
  }
}
