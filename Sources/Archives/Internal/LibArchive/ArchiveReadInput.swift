internal import CLibArchive
import FoundationEssentials

/// What a libarchive read handle reads from, through Folio's callbacks: a file it may
/// seek in (``FileInput``) or a chain of decoded bytes (``ByteSourceInput``).
///
/// The callbacks cannot throw: a failure is kept and thrown by the handle
/// once libarchive returns (``ArchiveReadHandle/rethrowInputError()``).
protocol ArchiveReadInput: AnyObject {
  /// Whether libarchive may skip ahead without reading.
  var canSkip: Bool { get }
  /// Whether libarchive may seek anywhere (7-Zip and ISO 9660 need it).
  var canSeek: Bool { get }
  /// The read callback's body: the next block, 0 at the end, -1 on error.
  func read(into start: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int
  /// The skip callback's body: the bytes skipped, or -1.
  func skip(_ request: Int64) -> Int64
  /// The seek callback's body: the new offset, or -1.
  func seek(to offset: Int64, whence: CInt) -> Int64
  /// The error a callback met, once.
  func takeError() -> (any Error)?
}

/// Sees every byte libarchive's tar reader is handed, and is told of every skip, to check
/// what libarchive does not report (see ``TarHeaderScanner``).
protocol ArchiveReadObserver: AnyObject {
  /// Bytes handed to libarchive, in order.
  func observe(_ bytes: UnsafeRawBufferPointer)
  /// Bytes libarchive skipped without reading.
  func skipped(_ count: Int64)
}
