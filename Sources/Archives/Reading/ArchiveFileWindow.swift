/// Small reads at offsets of an ``ArchiveFile`` through one cached window.
///
/// Opening a zip reads thousands of small records (one central-directory
/// record after another, the local headers they point at); the window turns
/// consecutive ones into one `pread` per window. Used by one thread.
final class ArchiveFileWindow {
  /// The bytes one `pread` fills when a read misses the window.
  static let size = 256 << 10

  let file: ArchiveFile
  /// Kept at its largest size, refilled in place: a window moving along a file costs no
  /// allocation and no zeroing (a slice a caller still holds makes the refill copy first).
  ///
  /// The window's state is read by every record of a zip, one access at a time on the one
  /// thread that owns the window: not checked for overlapping access at run time.
  @exclusivity(unchecked) private var window: [UInt8] = []
  @exclusivity(unchecked) private var windowStart: Int64 = 0
  /// How many bytes of `window` hold the file's bytes from `windowStart`.
  @exclusivity(unchecked) private var windowCount = 0

  /// Reads through a window onto `file`.
  ///
  /// - Parameter file: The file.
  init(_ file: ArchiveFile) { self.file = file }

  /// Exactly `count` bytes at `offset`, or `nil` when they pass the end of the file.
  ///
  /// - Parameters:
  ///   - offset: Where to start.
  ///   - count: How many bytes.
  /// - Returns: The bytes, or `nil` when `[offset, offset + count)` is not inside the file.
  /// - Throws: ``PackagingError`` when the read itself fails.
  func bytes(at offset: Int64, count: Int) throws -> ArraySlice<UInt8>? {
    guard try fill(at: offset, count: count) else { return nil }
    let start = Int(offset - windowStart)
    return window[start..<(start + count)]
  }

  /// Calls `body` with exactly `count` bytes at `offset`, read in place in the window, or
  /// returns `nil` when they pass the end of the file.
  ///
  /// For a reader of many small records: no slice is made (and so retained and released)
  /// for each. The bytes are valid only inside `body`, which must not read this window.
  ///
  /// - Parameters:
  ///   - offset: Where to start.
  ///   - count: How many bytes.
  ///   - body: What reads them.
  /// - Returns: What `body` returns, or `nil` when `[offset, offset + count)` is not inside
  ///   the file.
  /// - Throws: ``PackagingError`` when the read itself fails; what `body` throws.
  func withBytes<Result>(
    at offset: Int64, count: Int, _ body: (UnsafeRawBufferPointer) throws -> Result
  ) throws -> Result? {
    guard try fill(at: offset, count: count) else { return nil }
    let start = Int(offset - windowStart)
    return try window.withUnsafeBytes { all in
      try body(UnsafeRawBufferPointer(rebasing: all[start..<(start + count)]))
    }
  }

  /// Moves the window so that it holds `[offset, offset + count)`; `false` when those
  /// bytes are not all in the file.
  private func fill(at offset: Int64, count: Int) throws -> Bool {
    guard offset >= 0, count >= 0, offset <= file.size, Int64(count) <= file.size - offset else {
      return false
    }
    let windowEnd = windowStart + Int64(windowCount)
    if offset < windowStart || offset + Int64(count) > windowEnd {
      let wanted = Int(min(Int64(max(count, Self.size)), file.size - offset))
      if window.count < wanted {
        window = [UInt8](unsafeUninitializedCapacity: wanted) { _, initialized in
          initialized = wanted
        }
      }
      let file = file
      let got = try window.withUnsafeMutableBytes { buffer in
        try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: offset)
      }
      windowStart = offset
      windowCount = got
      guard got >= count else { return false }  // the file shrank
    }
    return true
  }
}
