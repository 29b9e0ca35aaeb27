/// DEFLATE data decoded with zlib, as another source's bytes arrive: a zip entry's raw
/// DEFLATE stream, or a gzip stream of one or more members.
///
/// A gzip stream may hold several members one after another (`cat a.gz b.gz`,
/// bgzip, pigz): each member's CRC-32 and length are checked by zlib as it
/// ends, and decoding goes on with the next. After the last member, zero bytes
/// (tape padding) are ignored, and other bytes that do not start a member are
/// counted in ``trailingBytes`` and ignored too, as gzip ("trailing garbage
/// ignored") and bsdtar do, up to ``maxTrailingBytes`` of padding and other bytes
/// together. A raw stream must end
/// exactly where its compressed bytes do.
final class InflateByteSource: ByteSource {
  /// What the bytes are.
  enum Format {
    /// One raw DEFLATE stream filling the whole upstream (a zip entry).
    case rawDeflate
    /// One or more gzip members, then optional zero padding.
    case gzip
  }

  /// Complete gzip members decoded so far.
  private(set) var membersEnded = 0
  /// Bytes after the last gzip member that are neither a member nor zero padding.
  private(set) var trailingBytes: Int64 = 0
  /// The most trailing bytes read past: more is damage, not a signature's or a disk
  /// image's leftovers, and would let a stream of noise be read to its end for nothing.
  static let maxTrailingBytes: Int64 = 1 << 20
  private let upstream: any ByteSource
  private let format: Format
  private let context: String
  private let stream: InflateStream
  private let output: UnsafeMutableRawBufferPointer
  private var pending = UnsafeRawBufferPointer(start: nil, count: 0)
  private var upstreamEnded = false
  private var memberEnded = false
  private var finished = false

  /// Decodes another source's bytes.
  ///
  /// - Parameters:
  ///   - upstream: The compressed bytes.
  ///   - format: Raw DEFLATE or gzip.
  ///   - context: What is being read, for messages (`'Notes.tar.gz'`, `entry 'a.txt'`).
  /// - Throws: ``PackagingError`` when zlib cannot start.
  init(_ upstream: any ByteSource, format: Format, context: String) throws {
    self.upstream = upstream
    self.format = format
    self.context = context
    stream = try InflateStream(format == .rawDeflate ? .raw : .gzip)
    output = .allocate(byteCount: ByteSourceChunk.size, alignment: 16)
  }

  deinit { output.deallocate() }

  func next() throws -> UnsafeRawBufferPointer? {
    while !finished {
      if pending.isEmpty && !upstreamEnded {
        if let chunk = try upstream.next() { pending = chunk } else { upstreamEnded = true }
      }
      if memberEnded {
        try startNextMemberOrFinish()
        continue
      }
      // With every compressed byte taken, zlib may still hold output: the rest of a long
      // match, or an end code already in its bit buffer, when the last call filled the
      // output. Only a call that makes no progress means the stream was cut short.
      let step = try stream.inflate(
        pending, into: output, operation: "\(context): \(damageMessage)")
      if pending.isEmpty && upstreamEnded && step.produced == 0 && !step.ended {
        throw PackagingError(.corruptArchive, "\(context): \(truncationMessage)")
      }
      pending = UnsafeRawBufferPointer(rebasing: pending[step.consumed...])
      if step.ended {
        memberEnded = true
        membersEnded += 1
      }
      if step.produced > 0 {
        return UnsafeRawBufferPointer(start: output.baseAddress, count: step.produced)
      }
    }
    return nil
  }

  /// After a stream or member ended: finishes (raw), or starts the next gzip member.
  private func startNextMemberOrFinish() throws {
    switch format {
    case .rawDeflate:
      // Nothing may follow the DEFLATE stream inside the entry's compressed bytes.
      var extra = pending.count
      while let chunk = try upstream.next() { extra += chunk.count }
      if extra > 0 {
        throw PackagingError(
          .corruptArchive,
          "\(context): the DEFLATE data ends \(extra) bytes before the entry's compressed size")
      }
      finished = true
    case .gzip:
      if pending.isEmpty {
        if upstreamEnded { finished = true }
        return
      }
      if pending[0] == 0x1F && (pending.count < 2 || pending[1] == 0x8B) {
        memberEnded = false
        try stream.reset()
        return
      }
      // Zero padding after the last member (tape blocking), or bytes that start no member
      // (a signature, a disk image's padding): counted, and ignored as gzip ignores them.
      // Padding counts against the same bound: a pipe of endless zeros is no padding.
      var after: Int64 = 0
      while true {
        after += Int64(pending.count)
        if trailingBytes == 0, let index = pending.firstIndex(where: { $0 != 0 }) {
          trailingBytes = Int64(pending.count - index)
        } else if trailingBytes > 0 {
          trailingBytes += Int64(pending.count)
        }
        if trailingBytes > Self.maxTrailingBytes || after > Self.maxTrailingBytes {
          throw PackagingError(
            .corruptArchive,
            "\(context): gzip member \(membersEnded) is followed by more than \(Self.maxTrailingBytes) bytes that are not a gzip member"
          )
        }
        guard let chunk = try upstream.next() else { break }
        pending = chunk
      }

      pending = UnsafeRawBufferPointer(start: nil, count: 0)
      upstreamEnded = true
      finished = true
    }
  }

  private var truncationMessage: String {
    switch format {
    case .rawDeflate: "the compressed data ends before the DEFLATE stream does (truncated)"
    case .gzip: "the gzip stream is truncated (member \(membersEnded + 1) has no end)"
    }
  }

  private var damageMessage: String {
    switch format {
    case .rawDeflate: "damaged DEFLATE data"
    case .gzip: "damaged gzip member \(membersEnded + 1)"
    }
  }
}
