import Synchronization

/// libdeflate decompressors lent to one inflation at a time and kept for the next, one for
/// each thread that inflates at once.
///
/// A new decompressor is zeroed whole (about 11 KB) and builds its static Huffman tables
/// at its first use: for a page of a few KiB that is more work than inflating the page,
/// so decompressors are kept and reused.
final class DeflateDecompressorPool: Sendable {
  private let idle = Mutex<[DeflateDecompressor]>([])

  /// Creates an empty pool; decompressors are made as they are first needed.
  init() {}

  /// Lends a decompressor for the length of `body`.
  ///
  /// - Parameter body: The work, given a decompressor no other thread holds.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws, or ``PackagingErrorDomain/Code/compressorFailed`` when
  ///   libdeflate cannot allocate a decompressor.
  func withDecompressor<Result>(_ body: (DeflateDecompressor) throws -> Result) throws -> Result {
    let decompressor = try idle.withLock { $0.popLast() } ?? DeflateDecompressor()
    defer { idle.withLock { $0.append(decompressor) } }
    return try body(decompressor)
  }
}
