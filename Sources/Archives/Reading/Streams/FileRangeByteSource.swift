/// A range of an ``ArchiveFile`` read with `pread`: one zip entry's compressed data.
///
/// Many range sources may read one file from different threads at once.
final class FileRangeByteSource: ByteSource {
  private let file: ArchiveFile
  private var offset: Int64
  private let start: Int64
  private let end: Int64
  private let buffer: UnsafeMutableRawBufferPointer
  /// Bytes handed on so far.
  private(set) var bytesRead: Int64 = 0

  /// Reads `[offset, offset + length)` of a file.
  ///
  /// - Parameters:
  ///   - file: The file.
  ///   - offset: Where the range starts.
  ///   - length: Its length; the range must lie inside the file.
  init(_ file: ArchiveFile, offset: Int64, length: Int64) {
    self.file = file
    self.offset = offset
    start = offset
    end = offset + length
    buffer = .allocate(
      byteCount: Int(min(Int64(ByteSourceChunk.size), max(length, 1))), alignment: 16)
  }

  deinit { buffer.deallocate() }

  /// Starts again from the range's first byte, as if nothing had been read.
  func rewind() {
    offset = start
    bytesRead = 0
  }

  func next() throws -> UnsafeRawBufferPointer? {
    guard offset < end else { return nil }
    let wanted = Int(min(Int64(buffer.count), end - offset))
    let got = try file.read(
      into: UnsafeMutableRawBufferPointer(start: buffer.baseAddress, count: wanted), at: offset)
    guard got == wanted else {
      throw PackagingError(
        .corruptArchive,
        "'\(file.name)' ends at \(offset + Int64(got)), inside data that runs to \(end)")
    }
    offset += Int64(got)
    bytesRead += Int64(got)
    return UnsafeRawBufferPointer(start: buffer.baseAddress, count: got)
  }
}
