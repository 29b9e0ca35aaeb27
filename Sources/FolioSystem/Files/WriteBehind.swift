/// Starts the disk writing of a file written front to back, a stretch at a
/// time while it is still being written, so the flush that makes it durable at
/// the end (``AtomicFile/commit(replacing:durable:)``) waits for the last
/// stretch only.
///
/// Left to the end, that flush is a large part of packing an archive, with the
/// disk idle until then. Writers that only append call ``append(_:)``, which writes and
/// notes in one step; one that seeks (an expansion's sparse file) writes itself
/// and reports with ``moved(to:)`` and ``wrote(_:)``.
/// Starting the writing makes nothing durable by itself
/// (`sync_file_range` with `SYNC_FILE_RANGE_WRITE`): the final flush still
/// decides, and a page written again later (a zip entry's local header,
/// patched) is simply written again by it.
package struct WriteBehind {
  /// The bytes written between two starts.
  package static let stretch = 4 << 20

  /// Starts the writing of one stretch: the descriptor, the offset, the length.
  package typealias Start = (Int32, Int64, Int64) -> Void

  private let descriptor: Int32
  private let startWriting: Start
  /// Where the bytes not yet started begin.
  private var start: Int64 = 0
  /// How many were written since.
  private var pending = 0

  /// Follows a file from its start.
  ///
  /// - Parameters:
  ///   - descriptor: The file, open for writing; it is never closed here.
  ///   - startWriting: What starts a stretch's writing; the system's
  ///     ``LinuxCalls/startWriteback(_:offset:count:)`` unless a test watches.
  package init(
    descriptor: Int32, startWriting: @escaping Start = LinuxCalls.startWriteback(_:offset:count:)
  ) {
    self.descriptor = descriptor
    self.startWriting = startWriting
  }

  /// Writes bytes at the file's current end (``SystemCall/writeAll(_:_:)``) and
  /// notes them as ``wrote(_:)`` does.
  ///
  /// - Parameter bytes: What to write.
  /// - Returns: 0, or the `errno` of the write that failed (nothing is noted then).
  package mutating func append(_ bytes: UnsafeRawBufferPointer) -> Int32 {
    let failure = SystemCall.writeAll(descriptor, bytes)
    if failure == 0 { wrote(bytes.count) }
    return failure
  }

  /// Notes that the next write lands at `offset` (after a seek past a hole); the
  /// bytes gathered but not yet started are left to the final flush.
  ///
  /// - Parameter offset: Where the next bytes go.
  package mutating func moved(to offset: Int64) {
    guard offset != start + Int64(pending) else { return }
    start = offset
    pending = 0
  }

  /// Starts the writing of the bytes gathered since the last start, however few: before a
  /// pause in the writing (an archive's directory being written after its last entry), so
  /// the disk writes them meanwhile and the final flush waits for less.
  package mutating func startPending() {
    guard pending > 0 else { return }
    startWriting(descriptor, start, Int64(pending))
    start += Int64(pending)
    pending = 0
  }

  /// Notes bytes appended to the file, and starts writing them to disk once a
  /// ``stretch`` has gathered.
  ///
  /// - Parameter count: How many bytes were just written, at the end of the file.
  package mutating func wrote(_ count: Int) {
    pending += count
    guard pending >= Self.stretch else { return }
    startWriting(descriptor, start, Int64(pending))
    start += Int64(pending)
    pending = 0
  }
}
