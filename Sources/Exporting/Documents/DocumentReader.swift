public import Foundation
public import Packaging

/// Reads a document from a URL into a snapshot: a value holding the document's state.
///
/// The model is Apple's document reader: the caller hands over the location and a
/// share of its progress; the reader does the file access and reports progress on
/// its share. For package documents, ``PackageDocumentReader`` does the common case:
/// it reads the folder as a lazy ``PackageTree`` and hands the root node to a closure.
public protocol DocumentReader: Sendable {
  /// The state a read produces.
  associatedtype Snapshot: Sendable

  /// Reads the document at `source`.
  ///
  /// - Parameters:
  ///   - source: The document's file or package folder.
  ///   - progress: The share of the caller's progress this read reports on.
  /// - Returns: The document's state.
  /// - Throws: When the document cannot be read or is malformed; ``ExportError`` names the file.
  func read(from source: URL, progress: consuming Subprogress) async throws -> Snapshot
}
