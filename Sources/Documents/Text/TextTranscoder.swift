import Archives
import FolioSystem
public import FoundationEssentials

/// Converts text from one encoding to another in fixed-size chunks, refusing any loss.
///
/// Decoding validates as it goes: a malformed UTF-8 sequence or a lone UTF-16
/// surrogate stops the conversion with the line and column where it sits. A
/// character the target cannot hold (anything above U+00FF for Latin-1) stops
/// it too, naming the character and its position, so a conversion either keeps
/// every character or writes nothing. Lines are counted at `\n`; columns count
/// Unicode scalars from 1.
public struct TextTranscoder: Sendable {
  /// How many bytes are read per step when converting a file.
  public static let chunkSize = 64 * 1024

  /// The input's encoding when it has no byte-order mark; a mark, when present, wins
  /// (except for Latin-1, which has none).
  public var sourceEncoding: TextEncoding
  /// The encoding to write.
  public var targetEncoding: TextEncoding
  /// The input's name as the user gave it, for messages.
  public var file: String

  /// Creates a transcoder.
  ///
  /// - Parameters:
  ///   - sourceEncoding: The input's encoding when it carries no byte-order mark.
  ///   - targetEncoding: The encoding to write.
  ///   - file: The input's name, for messages.
  public init(from sourceEncoding: TextEncoding, to targetEncoding: TextEncoding, file: String) {
    self.sourceEncoding = sourceEncoding
    self.targetEncoding = targetEncoding
    self.file = file
  }

  /// Converts bytes held in memory.
  ///
  /// - Parameter data: The text in the source encoding.
  /// - Returns: The text in the target encoding (with a byte-order mark for UTF-16).
  /// - Throws: ``ExportError`` with code `invalid-text` or `lossy-conversion`, located at the character.
  public func transcode(_ data: Data) throws -> Data {
    var session = Session(transcoder: self)
    var output: [UInt8] = []
    output.reserveCapacity(data.count * 2 + 2)
    try session.feed(data[...], into: &output)
    try session.finish(into: &output)
    return Data(output)
  }

  /// Converts a file to another file, reading and writing in ``chunkSize`` steps.
  ///
  /// - Parameters:
  ///   - input: The file to read.
  ///   - output: An open handle to write to.
  ///   - onChunk: Called after each chunk with the number of input bytes consumed; may throw to stop
  ///     (for example on cancellation).
  /// - Throws: ``ExportError`` for invalid or lossy text or a failed read; whatever `onChunk` throws.
  public func transcode(
    contentsOf input: URL, to output: ExportOutputFile, onChunk: (Int) throws -> Void
  ) throws {
    let handle: ReadingFile
    do {
      handle = try ReadingFile(atPath: input.path)
    } catch {
      throw ExportError(.readFailed, "cannot open '\(file)'", cause: error)
    }
    var session = Session(transcoder: self)
    var buffer: [UInt8] = []
    buffer.reserveCapacity(Self.chunkSize * 2 + 2)
    while true {
      let chunk: Data
      do {
        chunk = try handle.read(upToCount: Self.chunkSize)
      } catch {
        throw ExportError(.readFailed, "cannot read '\(file)'", cause: error)
      }
      if chunk.isEmpty { break }
      buffer.removeAll(keepingCapacity: true)
      try session.feed(chunk[...], into: &buffer)
      try writeAll(buffer, to: output)
      try onChunk(chunk.count)
    }
    buffer.removeAll(keepingCapacity: true)
    try session.finish(into: &buffer)
    try writeAll(buffer, to: output)
  }

  private func writeAll(_ bytes: [UInt8], to output: ExportOutputFile) throws {
    guard !bytes.isEmpty else { return }
    do {
      try output.write(contentsOf: bytes)
    } catch {
      throw ExportError(
        .writeFailed, "cannot write the \(targetEncoding) text of '\(file)'",
        cause: error)
    }
  }
}

extension TextTranscoder {
  /// The state carried from one chunk to the next: pending bytes, position, encodings.
  struct Session {
    let transcoder: TextTranscoder
    var encoding: TextEncoding
    var started = false
    var pending: [UInt8] = []
    var line = 1
    var column = 1
    /// A high surrogate waiting for its low half (UTF-16 input).
    var highSurrogate: UInt16?

    init(transcoder: TextTranscoder) {
      self.transcoder = transcoder
      self.encoding = transcoder.sourceEncoding
    }

    mutating func feed(_ chunk: Data.SubSequence, into output: inout [UInt8]) throws {
      var bytes = pending
      bytes.append(contentsOf: chunk)
      pending.removeAll()
      var index = 0
      if !started {
        // A byte-order mark needs three bytes to be told apart; wait for them unless the text is shorter.
        if bytes.count < 3 && encoding != .latin1 {
          pending = bytes
          return
        }
        try start(&bytes, &index, into: &output)
      }
      try decode(bytes, from: index, into: &output, final: false)
    }

    mutating func finish(into output: inout [UInt8]) throws {
      if !started {
        var bytes = pending
        pending.removeAll()
        var index = 0
        try start(&bytes, &index, into: &output)
        try decode(bytes, from: index, into: &output, final: true)
      } else {
        let bytes = pending
        pending.removeAll()
        try decode(bytes, from: 0, into: &output, final: true)
      }
      if highSurrogate != nil {
        throw invalid("a lone UTF-16 high surrogate at the end of the text")
      }
    }

    private mutating func start(
      _ bytes: inout [UInt8], _ index: inout Int, into output: inout [UInt8]
    )
      throws
    {
      started = true
      if encoding != .latin1, let (announced, length) = TextEncoding.detectByteOrderMark(bytes) {
        encoding = announced
        index = length
      }
      output.append(contentsOf: transcoder.targetEncoding.byteOrderMark)
    }

    private mutating func decode(
      _ bytes: [UInt8], from start: Int, into output: inout [UInt8], final: Bool
    ) throws {
      var index = start
      switch encoding {
      case .latin1:
        while index < bytes.count {
          try emit(Unicode.Scalar(bytes[index]), into: &output)
          index += 1
        }
      case .utf8:
        while index < bytes.count {
          let lead = bytes[index]
          if lead < 0x80 {
            try emit(Unicode.Scalar(lead), into: &output)
            index += 1
            continue
          }
          let length: Int
          switch lead {
          case 0x00...0x7F: length = 1
          case 0xC2...0xDF: length = 2
          case 0xE0...0xEF: length = 3
          case 0xF0...0xF4: length = 4
          default: throw invalidByte(lead)
          }
          if index + length > bytes.count {
            // Check the bytes that did arrive, so a bad continuation is reported now.
            try checkContinuations(bytes, lead: lead, from: index + 1, to: bytes.count)
            if final { throw invalid("a truncated UTF-8 sequence at the end of the text") }
            pending = Array(bytes[index...])
            return
          }
          try checkContinuations(bytes, lead: lead, from: index + 1, to: index + length)
          var value = UInt32(lead)
          switch length {
          case 2: value &= 0x1F
          case 3: value &= 0x0F
          case 4: value &= 0x07
          default: break
          }
          for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
          guard let scalar = Unicode.Scalar(value) else { throw invalidByte(lead) }
          try emit(scalar, into: &output)
          index += length
        }
      case .utf16LittleEndian, .utf16BigEndian:
        while index + 1 < bytes.count {
          let unit =
            encoding == .utf16LittleEndian
            ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
            : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
          index += 2
          if let high = highSurrogate {
            guard (0xDC00...0xDFFF).contains(unit) else {
              throw invalid("a lone UTF-16 high surrogate 0x\(high.digits(4, radix: 16))")
            }
            highSurrogate = nil
            let value = 0x10000 + (UInt32(high - 0xD800) << 10 | UInt32(unit - 0xDC00))
            guard let scalar = Unicode.Scalar(value) else { throw invalid("a bad surrogate pair") }
            try emit(scalar, into: &output)
          } else if (0xD800...0xDBFF).contains(unit) {
            highSurrogate = unit
          } else if (0xDC00...0xDFFF).contains(unit) {
            throw invalid("a lone UTF-16 low surrogate 0x\(unit.digits(4, radix: 16))")
          } else if let scalar = Unicode.Scalar(unit) {
            try emit(scalar, into: &output)
          }
        }
        if index < bytes.count {
          if final { throw invalid("an odd number of bytes in UTF-16 text") }
          pending = [bytes[index]]
        }
      }
    }

    private func checkContinuations(_ bytes: [UInt8], lead: UInt8, from: Int, to: Int) throws {
      for position in from..<to {
        let byte = bytes[position]
        var allowed: ClosedRange<UInt8> = 0x80...0xBF
        if position == from {
          // The second byte's range excludes overlong forms and surrogates.
          switch lead {
          case 0xE0: allowed = 0xA0...0xBF
          case 0xED: allowed = 0x80...0x9F
          case 0xF0: allowed = 0x90...0xBF
          case 0xF4: allowed = 0x80...0x8F
          default: break
          }
        }
        guard allowed.contains(byte) else { throw invalidByte(byte) }
      }
    }

    private mutating func emit(_ scalar: Unicode.Scalar, into output: inout [UInt8]) throws {
      // ASCII is the same byte in UTF-8 and Latin-1: the common case, kept short.
      if scalar.value < 0x80 && transcoder.targetEncoding != .utf16LittleEndian
        && transcoder.targetEncoding != .utf16BigEndian
      {
        output.append(UInt8(scalar.value))
        if scalar == "\n" {
          line += 1
          column = 1
        } else {
          column += 1
        }
        return
      }
      switch transcoder.targetEncoding {
      case .utf8:
        UTF8.encode(scalar) { output.append($0) }
      case .latin1:
        guard scalar.value <= 0xFF else {
          let shown = "U+\(scalar.value.digits(4, radix: 16))"
          throw ExportError(
            .lossyConversion,
            "'\(transcoder.file)' cannot become Latin-1 without loss: '\(scalar.escaped(asASCII: false))' (\(shown)) at line \(line), column \(column) has no Latin-1 form",
            location: here())
        }
        output.append(UInt8(scalar.value))
      case .utf16LittleEndian, .utf16BigEndian:
        let value = scalar.value
        if value < 0x10000 {
          append(UInt16(value), to: &output)
        } else {
          append(UInt16(0xD800 + ((value - 0x10000) >> 10)), to: &output)
          append(UInt16(0xDC00 + ((value - 0x10000) & 0x3FF)), to: &output)
        }
      }
      if scalar == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }

    private func append(_ unit: UInt16, to output: inout [UInt8]) {
      if transcoder.targetEncoding == .utf16LittleEndian {
        output.append(UInt8(unit & 0xFF))
        output.append(UInt8(unit >> 8))
      } else {
        output.append(UInt8(unit >> 8))
        output.append(UInt8(unit & 0xFF))
      }
    }

    private func here() -> SourceLocation {
      SourceLocation(file: transcoder.file, line: line, column: column)
    }

    private func invalidByte(_ byte: UInt8) -> ExportError {
      invalid("an invalid \(encoding) byte 0x\(byte.digits(2, radix: 16))")
    }

    private func invalid(_ what: String) -> ExportError {
      ExportError(
        .invalidText,
        "'\(transcoder.file)' is not valid \(encoding) text: \(what) at line \(line), column \(column)",
        location: here())
    }
  }
}
