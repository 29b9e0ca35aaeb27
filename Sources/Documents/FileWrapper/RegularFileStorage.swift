import Archives
package import FoundationEssentials

/// Where a regular-file wrapper's bytes are.
enum RegularFileStorage {
  /// In memory (made by a program, or already read). `written` is the identity of the
  /// file the bytes were last written to, so a later write can link it unread.
  case memory(Data, written: FileIdentity? = nil)
  /// On disk, not read yet; `identity` is the file as it was when the wrapper was made.
  case disk(path: String, identity: FileIdentity)
  /// In another store (an archive member), not read yet.
  case source(any RegularFileSource)
}

/// A store that can hand over one file's bytes later: an archive member, for example.
package protocol RegularFileSource: AnyObject {
  /// The file's size in bytes, known without reading it.
  var byteCount: Int64 { get }
  /// The file's modification date, when the store records one.
  var modificationDate: Date? { get }
  /// The file's permission bits, when the store records them.
  var permissions: UInt16? { get }

  /// Hands the file's bytes to `body` in order, `chunkSize` bytes at most at a time.
  ///
  /// - Parameters:
  ///   - chunkSize: The most bytes per call.
  ///   - body: Receives each chunk.
  /// - Throws: Why the bytes cannot be read, naming the file; whatever `body` throws.
  func readContents(chunkSize: Int, _ body: (Data) throws -> Void) throws
}
