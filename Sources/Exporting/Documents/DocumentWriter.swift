public import Foundation
public import Packaging

/// Writes a snapshot of a document to a URL.
///
/// The model is Apple's document writer: `previous` is the snapshot last written
/// successfully to the same place, if any, so a writer of a package can compare
/// the two and rewrite only the files whose content changed. Writers put their
/// output in place atomically. ``PackageDocumentWriter`` does the common case
/// from a ``PackageNode`` tree.
public protocol DocumentWriter: Sendable {
  /// The state a write stores.
  associatedtype Snapshot: Sendable

  /// Writes `snapshot` to `destination`.
  ///
  /// - Parameters:
  ///   - snapshot: The state to store.
  ///   - destination: The document's file or package folder.
  ///   - previous: The snapshot last written to `destination`, when the writer may update it in place.
  ///   - progress: The share of the caller's progress this write reports on.
  /// - Throws: When the output cannot be written; ``ExportError`` names the file.
  func write(
    snapshot: Snapshot, to destination: URL, previous: Snapshot?, progress: consuming Subprogress
  ) async throws
}
