import FolioSystem
import FoundationEssentials
public import ProgressReporting
public import PropertyLists
public import UniformTypes

/// Re-encodes plain text: UTF-8, UTF-16 (with a byte-order mark) or Latin-1, never losing a character.
///
/// The input's encoding comes from its type (`public.utf16-plain-text` is
/// little-endian UTF-16, `public.utf16-external-plain-text` big-endian, Latin-1
/// text is Latin-1, any other plain text UTF-8), and a byte-order mark at its
/// start overrides that. A character the target cannot hold stops the export
/// with its line and column, and nothing is written.
public struct TextEncodingExporter: Exporter {
  /// The encoding written.
  public var encoding: TextEncoding

  /// Creates an exporter.
  ///
  /// - Parameter encoding: The encoding to write.
  public init(encoding: TextEncoding) { self.encoding = encoding }

  public var name: String {
    switch encoding {
    case .utf8: "encode-utf8"
    case .utf16LittleEndian: "encode-utf16"
    case .utf16BigEndian: "encode-utf16-external"
    case .latin1: "encode-latin1"
    }
  }

  public var sourceType: UTType { .plainText }

  public var targetType: UTType { Self.type(for: encoding) }

  /// The type of plain text in an encoding.
  ///
  /// - Parameter encoding: The encoding.
  /// - Returns: Its plain-text type.
  public static func type(for encoding: TextEncoding) -> UTType {
    switch encoding {
    case .utf8: .utf8PlainText
    case .utf16LittleEndian: .utf16PlainText
    case .utf16BigEndian: .utf16ExternalPlainText
    case .latin1: ExportTypes.latin1PlainText
    }
  }

  /// The encoding text of a type is read in when it carries no byte-order mark.
  ///
  /// - Parameters:
  ///   - type: A plain-text type.
  ///   - registry: The types known.
  /// - Returns: The encoding.
  public static func encoding(of type: UTType, registry: TypeRegistry) -> TextEncoding {
    if registry.conforms(type, to: .utf16ExternalPlainText) { return .utf16BigEndian }
    if registry.conforms(type, to: .utf16PlainText) { return .utf16LittleEndian }
    if registry.conforms(type, to: ExportTypes.latin1PlainText) { return .latin1 }
    return .utf8
  }

  public func outputName(for input: ExportItem, outputType: UTType, registry: TypeRegistry)
    -> String
  {
    ExportNaming.replacingExtension(
      of: input, with: outputType, registry: registry,
      distinguishing: name.replacing("encode-", with: ""))
  }

  public func export(_ job: ExportJob, progress: consuming Subprogress) async throws -> [Diagnostic]
  {
    let reporter = progress.start(totalCount: 1)
    defer { reporter.end() }
    let source = Self.encoding(of: job.input.type, registry: job.registry)
    let transcoder = TextTranscoder(from: source, to: encoding, file: job.input.displayName)
    try await runBlocking(cancelling: reporter) {
      let size = AtomicOutput.fileSize(job.input.url)
      reporter.totalFileCount += 1
      reporter.totalByteCount += UInt64(clamping: size)
      reporter.startFile(job.input.displayName, size: size)
      try job.writeOutputFile { handle in
        try transcoder.transcode(contentsOf: job.input.url, to: handle) { count in
          try reporter.checkCancellation()
          reporter.completedByteCount += UInt64(count)
        }
      }
      reporter.completeFile(job.input.displayName)
      reporter.complete(count: 1)
    }
    return []
  }
}
