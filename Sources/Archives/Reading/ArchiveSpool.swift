import FolioSystem
import FoundationEssentials
import Glibc

/// An unnamed temporary copy of an archive that arrives as a stream but can only be read
/// with seeks (a zip, whose central directory is at its end; a 7-Zip archive).
///
/// The copy is made with `O_TMPFILE` (or a name unlinked at once), so it
/// never shows in a folder and vanishes with the process, however it ends.
/// It is held to the input size limit and the expansion's byte limit and, when the bytes
/// were decompressed on the way, to the ratio limit.
enum ArchiveSpool {
  /// `O_TMPFILE` on Linux (`__O_TMPFILE | O_DIRECTORY`), which Swift's Glibc module hides.
  private static let temporaryFileFlag: Int32 = 0o20_200_000

  /// Copies a stream into an unnamed temporary file.
  ///
  /// - Parameters:
  ///   - source: The bytes.
  ///   - name: The archive's name, for messages and the returned file.
  ///   - folder: Where the copy lives (the destination's folder, so it counts on the
  ///     disk the expansion fills); the system's temporary folder when `nil`.
  ///   - policy: The input size, byte and ratio limits.
  ///   - consumed: The compressed bytes read so far, when the stream was decompressed.
  /// - Returns: The copy, open for reading.
  /// - Throws: ``PackagingError``: `input-too-large`, `expansion-too-large`, `compression-ratio`, or
  ///   `destination-write-failed` when the copy cannot be written.
  static func copy(
    _ source: any ByteSource, name: String, into folder: String?, policy: ExpansionPolicy,
    consumed: (() -> Int64)?
  ) throws -> ArchiveFile {
    let directory =
      folder ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "/tmp"
    let descriptor = try makeFile(in: directory)
    var written: Int64 = 0
    do {
      while let chunk = try source.next() {
        written += Int64(chunk.count)
        if written > policy.maxInputSize {
          throw PackagingError(
            .inputTooLarge,
            "'\(name)' holds more than \(policy.maxInputSize) bytes, the limit for a zip or 7-Zip archive read from a stream (it is copied to a temporary file first)"
          )
        }
        if written > policy.maxTotalBytes {
          throw PackagingError(
            .expansionTooLarge,
            "'\(name)' is more than \(policy.maxTotalBytes) bytes, the limit for the copy a zip read from a stream needs"
          )
        }
        if let consumed, policy.exceedsRatio(expanded: written, compressed: consumed()) {
          throw PackagingError(
            .compressionRatio,
            "'\(name)': \(written) bytes decompressed from \(consumed()), past the ratio limit of \(Int(policy.maxCompressionRatio))"
          )
        }
        var done = 0
        while done < chunk.count {
          let count = SystemCall.retryingInterrupts {
            write(descriptor, chunk.baseAddress! + done, chunk.count - done)
          }
          guard count >= 0 else {
            throw PackagingError(
              .destinationWriteFailed,
              "cannot copy '\(name)' into a temporary file in '\(directory)'",
              cause: SystemError(errno: errno))
          }
          done += count
        }
      }
    } catch {
      close(descriptor)
      throw error
    }
    return try ArchiveFile(descriptor: descriptor, name: name)
  }

  /// An unnamed file open for reading and writing in `directory`.
  private static func makeFile(in directory: String) throws -> Int32 {
    let unnamed = SystemCall.retryingInterrupts {
      open(directory, temporaryFileFlag | O_RDWR | O_CLOEXEC, 0o600)
    }
    if unnamed >= 0 { return unnamed }
    // No O_TMPFILE on this file system: a name, unlinked at once.
    var template = Array((directory + "/.folio-spool-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
      throw PackagingError(
        .destinationWriteFailed, "cannot create a temporary file in '\(directory)'",
        cause: SystemError(errno: errno))
    }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    return descriptor
  }
}
