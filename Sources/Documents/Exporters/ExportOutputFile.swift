import Archives
import FolioSystem
public import FoundationEssentials
import Glibc

/// The file an exporter writes its result to, open for writing: the part of Foundation's
/// `FileHandle` that exporters use (`write(contentsOf:)`, `fileDescriptor`).
///
/// ``ExportJob/writeOutputFile(_:)`` creates, syncs and closes it; an exporter only writes.
/// Folio's modules use FoundationEssentials, which has no `FileHandle`.
public final class ExportOutputFile {
  /// The open descriptor, for code that writes through system calls of its own.
  public let fileDescriptor: Int32
  /// The file's name for messages.
  let displayName: String

  /// Wraps a descriptor open for writing, which stays the caller's to close.
  ///
  /// - Parameters:
  ///   - fileDescriptor: The open, writable descriptor.
  ///   - displayName: How messages name the file.
  public init(fileDescriptor: Int32, displayName: String) {
    self.fileDescriptor = fileDescriptor
    self.displayName = displayName
  }

  /// Appends bytes to the file, all of them.
  ///
  /// - Parameter data: The bytes to write.
  /// - Throws: ``ExportError`` `write-failed` naming the file, with the system's error.
  public func write<Bytes: DataProtocol>(contentsOf data: Bytes) throws {
    for region in data.regions {
      let status = region.withUnsafeBytes { SystemCall.writeAll(fileDescriptor, $0) }
      guard status == 0 else {
        throw ExportError(
          .writeFailed, "cannot write '\(displayName)'", cause: SystemError(errno: status))
      }
    }
  }
}
