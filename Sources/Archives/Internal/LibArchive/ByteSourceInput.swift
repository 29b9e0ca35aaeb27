internal import CLibArchive
import FoundationEssentials

/// A ``ByteSource`` under a read handle: decoded bytes, a pipe, or a file read front to
/// back, handed to libarchive block by block and shown to an observer first.
final class ByteSourceInput: ArchiveReadInput {
  private let source: any ByteSource
  private let skipper: ((Int64) throws -> Int64)?
  private let observer: (any ArchiveReadObserver)?
  private var failure: (any Error)?

  /// Feeds a source to a handle.
  ///
  /// - Parameters:
  ///   - source: The bytes.
  ///   - observer: Shown every byte before libarchive, and told of skips.
  ///   - skipper: Skips ahead in the source without reading (a regular file's `lseek`),
  ///     returning how far it went; `nil` when the source cannot skip.
  init(
    _ source: any ByteSource, observer: (any ArchiveReadObserver)? = nil,
    skipper: ((Int64) throws -> Int64)? = nil
  ) {
    self.source = source
    self.observer = observer
    self.skipper = skipper
  }

  var canSkip: Bool { skipper != nil }
  var canSeek: Bool { false }

  func read(into start: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
    do {
      guard let chunk = try source.next() else {
        start.pointee = nil
        return 0
      }
      observer?.observe(chunk)
      start.pointee = chunk.baseAddress
      return chunk.count
    } catch {
      failure = error
      return -1
    }
  }

  func skip(_ request: Int64) -> Int64 {
    guard let skipper else { return 0 }
    do {
      let skipped = try skipper(request)
      observer?.skipped(skipped)
      return skipped
    } catch {
      failure = error
      return -1
    }
  }

  func seek(to offset: Int64, whence: CInt) -> Int64 { -1 }

  func takeError() -> (any Error)? {
    defer { failure = nil }
    return failure
  }
}
