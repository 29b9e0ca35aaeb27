import FolioSystem
import FoundationEssentials
public import ProgressReporting
public import PropertyLists
public import UniformTypes

/// Converts property lists between XML, binary and JSON, as `plutil -convert` does.
///
/// The input may be any property list (XML, binary or JSON; the reader tells
/// them apart by their bytes) or plain JSON. A value the target cannot hold
/// (a date or data in JSON, a JSON `null` anywhere) stops the export with the
/// property list layer's `unrepresentable` error; nothing is written.
public struct PropertyListExporter: Exporter {
  /// The format written: one of ``PropertyListFormat/writable`` (an OpenStep exporter would
  /// refuse every input, as the writer does not write that format).
  public var format: PropertyListFormat
  /// The type read: `com.apple.property-list` or `public.json`.
  public var sourceType: UTType

  /// Creates an exporter.
  ///
  /// - Parameters:
  ///   - format: The format to write.
  ///   - sourceType: The type read (`com.apple.property-list`, or `public.json` for JSON input).
  public init(format: PropertyListFormat, from sourceType: UTType = .propertyList) {
    self.format = format
    self.sourceType = sourceType
  }

  public var name: String {
    let source = sourceType == .json ? "json" : "plist"
    switch format {
    case .xml: return "\(source)-to-xml-plist"
    case .binary: return "\(source)-to-binary-plist"
    case .json: return "\(source)-to-json"
    case .openStep: return "\(source)-to-openstep"
    }
  }

  public var targetType: UTType {
    switch format {
    case .xml: .xmlPropertyList
    case .binary: .binaryPropertyList
    case .json: .json
    case .openStep: .propertyList
    }
  }

  public func outputName(for input: ExportItem, outputType: UTType, registry: TypeRegistry)
    -> String
  {
    ExportNaming.replacingExtension(
      of: input, with: outputType, registry: registry, distinguishing: format.rawValue)
  }

  public func export(_ job: ExportJob, progress: consuming Subprogress) async throws -> [Diagnostic]
  {
    let reporter = progress.start(totalCount: 2)
    defer { reporter.end() }
    let format = self.format
    return try await runBlocking(cancelling: reporter) {
      let size = AtomicOutput.fileSize(job.input.url)
      reporter.totalFileCount += 1
      reporter.totalByteCount += UInt64(clamping: size)
      reporter.startFile(job.input.displayName, size: size)
      let document = try PropertyListReader.read(
        contentsOf: job.input.url, displayName: job.input.displayName)
      reporter.completedByteCount += UInt64(clamping: size)
      reporter.complete(count: 1)
      let data = try PropertyListWriter.data(
        for: document.rootWithUniqueKeys, format: format)
      try job.writeOutputFile { try $0.write(contentsOf: data) }
      reporter.completeFile(job.input.displayName)
      reporter.complete(count: 1)
      return document.diagnostics
    }
  }
}
