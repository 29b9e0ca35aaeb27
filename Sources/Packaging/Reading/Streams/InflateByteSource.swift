/// DEFLATE data decoded with zlib, as another source's bytes arrive: a zip entry's raw
/// DEFLATE stream, or a gzip stream of one or more members.
///
/// A gzip stream may hold several members one after another (`cat a.gz b.gz`,
/// bgzip, pigz): each member's CRC-32 and length are checked by zlib as it
/// ends, and decoding goes on with the next. After the last member only zero
/// bytes may follow (padding, which gzip ignores too); anything else is
/// damage. A raw stream must end exactly where its compressed bytes do.
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
      if pending[0] == 0x1F {
        memberEnded = false
        try stream.reset()
        return
      }
      // Zero padding after the last member (tape blocking); anything else is damage.
      while true {
        if let index = pending.firstIndex(where: { $0 != 0 }) {
          throw PackagingError(
            .corruptArchive,
            "\(context): gzip member \(membersEnded) is followed by bytes that are not a gzip member (0x\(String(pending[index], radix: 16)))"
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
