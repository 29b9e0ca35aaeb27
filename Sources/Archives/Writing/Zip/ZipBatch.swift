import FoundationEssentials

/// A run of consecutive zip entries handed to one worker: several small
/// entries read and compressed whole, or one chunk of a large file.
///
/// A batch owns two fixed buffers: the input (file bytes, and before a chunk
/// the 32 KiB that precede it) and the output (compressed bytes). A worker
/// fills them and records each item's result; the producer then writes the
/// items out in order and reuses the batch. Exactly one thread touches a
/// batch at a time, handed over through ``OrderedPipeline``.
final class ZipBatch: @unchecked Sendable {
  /// One entry, or one chunk of an entry.
  struct Item {
    enum Kind {
      case directory
      case symbolicLink(target: [UInt8])
      /// A whole file, no larger than the chunk size.
      case file(ZipFileSource, compression: EntryCompression)
      /// One chunk of a large file.
      case chunk(ZipStreamedFile, offset: Int64, length: Int)
      /// A file whose compressed bytes are copied from an earlier archive when written out.
      case reused(ZipReusedData)
    }

    var kind: Kind
    /// The entry's path in the archive (without a folder's trailing `/`).
    var path: String
    var permissions: UInt32
    var modificationTime: Int64
    /// The file's size (0 for folders and links).
    var size: Int64

    // Results, set by the worker.
    var method = ZipEntryRecord.Method.stored
    var crc32: UInt32 = 0
    /// Where the item's data is: in ``ZipBatch/output`` when compressed, else in the input.
    var dataInOutput = false
    var dataRange = 0..<0
    /// A reused entry's headers, built by the worker (``ZipBatch/headers``).
    var reusedHeaders: ReusedHeaders?
  }

  /// A reused entry's headers, built by a worker while the writer writes earlier entries:
  /// the writer only puts the offset of the local header into the central record.
  struct ReusedHeaders {
    /// Whether the earlier archive's local header is the one a fresh pack writes (then it
    /// is copied with the data).
    var sameLocalHeader: Bool
    /// The local header, in ``ZipBatch/headers`` (empty when the same as the earlier one).
    var local: Range<Int>
    /// The central-directory record, in ``ZipBatch/headers``, built with offset 0 in its
    /// 32-bit offset field (``centralOffsetPosition``).
    var central: Range<Int>

    /// Where the central record's local-header offset lies.
    static let centralOffsetPosition = 42
  }

  /// What a worker needs besides the batch: the same for every batch of an archive.
  struct Settings: Sendable {
    var level: Int
    var compression: EntryCompression
    /// The largest whole file, and the size of a large file's chunks.
    var chunkSize: Int
    /// The most entries in one batch.
    var entryLimit: Int
  }

  let settings: Settings
  /// Its entries, in order; one thread at a time (producer, worker, writer) touches them, one
  /// access at a time: not checked for overlapping access at run time.
  @exclusivity(unchecked) private(set) var items: [Item] = []
  /// The bytes the items' input takes so far.
  private(set) var inputUsed = 0
  /// Whether an item reads a file (and so needs a worker's compressors): otherwise the
  /// batch only builds headers (reused entries, folders, links).
  private(set) var readsFiles = false
  /// The first failure, in item order; items after it are not processed.
  private(set) var failure: (any Error)?
  /// The index of the item that failed.
  private(set) var failedIndex = Int.max

  let input: UnsafeMutableRawBufferPointer
  let output: UnsafeMutableRawBufferPointer
  /// Reused entries' headers (``Item/reusedHeaders``), kept apart from the output, which
  /// compressed files may fill.
  private(set) var headers: [UInt8] = []
  /// The earlier archive that reused items' bytes come from (set by the producer).
  var earlierArchive: ZipArchive?

  /// The bytes one batch holds: its two buffers.
  static func bufferBytes(settings: Settings) -> Int {
    settings.chunkSize + DeflateStream.windowSize + outputCapacity(settings)
  }

  /// The output buffer: a chunk's worst case, or every entry of a batch as stored blocks.
  private static func outputCapacity(_ settings: Settings) -> Int {
    DeflateChunk.outputCapacity(forChunkOf: settings.chunkSize) + 5 * (settings.entryLimit + 2)
  }

  init(settings: Settings) {
    self.settings = settings
    input = .allocate(byteCount: settings.chunkSize + DeflateStream.windowSize, alignment: 64)
    output = .allocate(byteCount: Self.outputCapacity(settings), alignment: 64)
  }

  deinit {
    input.deallocate()
    output.deallocate()
  }

  var isEmpty: Bool { items.isEmpty }

  /// Calls `body` with the items and the reused entries' headers, read in place (the
  /// producer, writing the batch out): an item's fields read through these are neither
  /// copied nor retained with the rest of it.
  func withItemsAndHeaders<Result>(
    _ body: (UnsafeBufferPointer<Item>, UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    try items.withUnsafeBufferPointer { items in
      try headers.withUnsafeBufferPointer { headers in try body(items, headers) }
    }
  }

  /// Whether a whole file of `size` bytes still fits, beside the items already here.
  func hasRoom(forFileOf size: Int64) -> Bool {
    items.count < settings.entryLimit && Int64(inputUsed) + size <= Int64(settings.chunkSize)
  }

  /// Adds an item (the producer, before submitting).
  func append(_ item: consuming Item) {
    switch item.kind {
    case .file:
      inputUsed += Int(item.size)
      readsFiles = true
    case .chunk(_, _, let length):
      inputUsed += length
      readsFiles = true
    case .directory, .symbolicLink, .reused: break
    }
    items.append(item)
  }

  /// Empties the batch for reuse (the producer, after writing it out).
  func reset() {
    items.removeAll(keepingCapacity: true)
    headers.removeAll(keepingCapacity: true)
    inputUsed = 0
    readsFiles = false
    failure = nil
    failedIndex = .max
  }

  /// Reads and compresses every item (a worker; the producer itself for a batch that reads
  /// no file).
  ///
  /// - Parameter workspace: The worker's compressors; `nil` only when ``readsFiles`` is
  ///   false.
  func process(_ workspace: CompressionWorkspace?) {
    var inputCursor = 0
    var outputCursor = 0
    // Built in a local buffer, put back at the end: each access to the stored one is
    // checked for exclusivity, three for every reused entry.
    var headers = self.headers
    self.headers = []
    defer { self.headers = headers }
    for index in items.indices {
      do {
        switch items[index].kind {
        case .directory:
          break
        case .reused(let data):
          prepareReused(index, data: data, headers: &headers)
        case .symbolicLink(let target):
          items[index].crc32 = target.withUnsafeBytes { LibDeflate.crc32(0, $0) }
        case .file(let source, let compression):
          guard let workspace else { preconditionFailure("a file read with no compressors") }
          try processFile(
            index, source: source, compression: compression, inputCursor: &inputCursor,
            outputCursor: &outputCursor, workspace: workspace)
        case .chunk(let file, let offset, let length):
          guard let workspace else { preconditionFailure("a chunk read with no compressors") }
          try processChunk(index, file: file, offset: offset, length: length, workspace: workspace)
        }
      } catch {
        failure = error
        failedIndex = index
        return
      }
    }
  }

  /// Builds a reused entry's headers as the writer would, but with no offset, and compares
  /// the local one with the earlier archive's.
  private func prepareReused(_ index: Int, data: ZipReusedData, headers: inout [UInt8]) {
    guard let earlierArchive else { preconditionFailure("a reused entry with no earlier archive") }
    let record = ZipEntryRecord(reusing: data, for: items[index], chunkSize: settings.chunkSize)
    let localStart = headers.count
    let same = record.withLocalHeader { header in
      if data.hasLocalHeader(header, in: earlierArchive) { return true }
      headers.append(contentsOf: header)
      return false
    }
    let centralStart = headers.count
    record.withCentralHeader { headers.append(contentsOf: $0) }
    items[index].reusedHeaders = ReusedHeaders(
      sameLocalHeader: same, local: localStart..<centralStart,
      central: centralStart..<headers.count)
  }

  private func processFile(
    _ index: Int, source: ZipFileSource, compression: EntryCompression, inputCursor: inout Int,
    outputCursor: inout Int, workspace: CompressionWorkspace
  ) throws {
    let size = Int(items[index].size)
    let target = UnsafeMutableRawBufferPointer(rebasing: input[inputCursor..<(inputCursor + size)])
    try source.readWhole(into: target)
    let bytes = UnsafeRawBufferPointer(target)
    items[index].crc32 = LibDeflate.crc32(0, bytes)
    items[index].dataRange = inputCursor..<(inputCursor + size)
    inputCursor += size
    guard
      !Self.stores(
        path: items[index].path, bytes: bytes, compression: compression,
        level: settings.level, probe: workspace.probe)
    else { return }
    let compressor = try workspace.wholeBufferCompressor()
    if compression == .deflate {
      // Deflated whatever it saves (`--level`): as stored blocks when deflate would add more.
      let room = UnsafeMutableRawBufferPointer(
        rebasing: output[outputCursor..<(outputCursor + DeflateChunk.storedSize(size))])
      let count =
        compressor.compress(bytes, into: room)
        ?? DeflateChunk.store(bytes, into: room, finishing: true)
      record(index, deflatedTo: outputCursor..<(outputCursor + count))
      outputCursor += count
      return
    }
    // One byte less than the input: libdeflate gives up when deflating does not save.
    let room = UnsafeMutableRawBufferPointer(
      rebasing: output[outputCursor..<(outputCursor + size - 1)])
    guard let count = compressor.compress(bytes, into: room) else { return }
    record(index, deflatedTo: outputCursor..<(outputCursor + count))
    outputCursor += count
  }

  private func record(_ index: Int, deflatedTo range: Range<Int>) {
    items[index].method = .deflated
    items[index].dataInOutput = true
    items[index].dataRange = range
  }

  private func processChunk(
    _ index: Int, file: ZipStreamedFile, offset: Int64, length: Int,
    workspace: CompressionWorkspace
  ) throws {
    let dictionaryLength = file.storing ? 0 : Int(min(offset, Int64(DeflateStream.windowSize)))
    let whole = UnsafeMutableRawBufferPointer(rebasing: input[0..<(dictionaryLength + length)])
    try file.read(into: whole, at: offset - Int64(dictionaryLength))
    let chunk = UnsafeRawBufferPointer(rebasing: whole[dictionaryLength...])
    items[index].crc32 = LibDeflate.crc32(0, chunk)
    if file.storing {
      items[index].dataRange = dictionaryLength..<(dictionaryLength + length)
      return
    }
    let count = try DeflateChunk.compress(
      chunk, dictionary: UnsafeRawBufferPointer(rebasing: whole[0..<dictionaryLength]),
      into: output, finishing: offset + Int64(length) == file.size, workspace: workspace,
      name: "'\(file.displayPath)'")
    items[index].method = .deflated
    items[index].dataInOutput = true
    items[index].dataRange = 0..<count
  }

  /// Whether a whole file is stored rather than deflated: the same rule
  /// whatever thread decides it.
  ///
  /// Stored: everything at level 0 or with `.store`; with `.automatic`, files
  /// too small to gain, files whose name says they are already compressed, and
  /// files whose bytes look random.
  static func stores(
    path: String, bytes: UnsafeRawBufferPointer, compression: EntryCompression, level: Int,
    probe: CompressibilityProbe
  ) -> Bool {
    switch compression {
    case .store: return true
    case .deflate: return level == 0
    case .automatic: break
    }
    if level == 0 || bytes.count < CompressibilityProbe.smallestDeflatedSize { return true }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    if probe.isAlreadyCompressed(fileName: name) { return true }
    guard bytes.count >= CompressibilityProbe.smallestSampledSize else { return false }
    return probe.looksIncompressible(UnsafeRawBufferPointer(rebasing: bytes.prefix(64 * 1024)))
  }
}
