import FoundationEssentials

/// A run of consecutive tar entries whose small files a worker reads ahead of
/// the writer, into one fixed buffer.
///
/// libarchive writes tar on the producer's thread, so what a worker can take
/// off that thread is the reading: opening each file, reading it, checking it
/// did not change, closing it (five system calls, most of a small file's cost
/// beside libarchive's own). The producer then writes the batch's entries out
/// in order, from the buffer. Exactly one thread touches a batch at a time,
/// handed over through ``OrderedPipeline``.
final class TarBatch: @unchecked Sendable {
  /// One entry.
  struct Item {
    enum Kind {
      case directory
      case symbolicLink(target: String)
      /// A further name of a file written earlier in the archive.
      case hardLink(target: String)
      /// A file (or bytes in memory) read whole by the worker.
      case file(ZipFileSource)
    }

    var kind: Kind
    /// The entry's path in the archive.
    var path: String
    var metadata: ArchiveWriter.Metadata
    /// Where a file's bytes go in ``TarBatch/input`` (empty for other kinds).
    var dataRange: Range<Int> = 0..<0
  }

  /// The bytes of file data one batch holds; a larger file is written
  /// straight from its descriptor by the producer, in chunks.
  static let inputCapacity = 256 * 1024
  /// The most entries one batch carries.
  static let entryLimit = 256

  private(set) var items: [Item] = []
  /// The bytes the files take so far.
  private(set) var inputUsed = 0
  /// The first failure, in item order; items after it are not read.
  private(set) var failure: (any Error)?
  /// The index of the item that failed.
  private(set) var failedIndex = Int.max

  /// The files' bytes, one after another.
  let input: UnsafeMutableRawBufferPointer

  init() {
    input = .allocate(byteCount: Self.inputCapacity, alignment: 64)
  }

  deinit { input.deallocate() }

  /// Whether an entry with `size` bytes of data still fits beside the items already here.
  func hasRoom(forDataOf size: Int) -> Bool {
    items.count < Self.entryLimit && inputUsed + size <= Self.inputCapacity
  }

  /// Adds an entry (the producer, before submitting); a file's data is placed
  /// after the files already here.
  func append(_ item: Item, dataSize: Int = 0) {
    var item = item
    item.dataRange = inputUsed..<(inputUsed + dataSize)
    inputUsed += dataSize
    items.append(item)
  }

  /// Empties the batch for reuse (the producer, after writing it out).
  func reset() {
    items.removeAll(keepingCapacity: true)
    inputUsed = 0
    failure = nil
    failedIndex = .max
  }

  /// Reads every file of the batch into the buffer (a worker).
  func process() {
    for index in items.indices {
      guard case .file(let source) = items[index].kind else { continue }
      do {
        try source.readWhole(
          into: UnsafeMutableRawBufferPointer(rebasing: input[items[index].dataRange]))
      } catch {
        failure = error
        failedIndex = index
        return
      }
    }
  }

  /// A file's bytes, once read.
  func data(of item: Item) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: input[item.dataRange])
  }
}
