public import Archives
import FoundationEssentials
public import ProgressReporting
public import PropertyLists
public import UniformTypes

/// Flattens a package or folder into an archive with ``Packer``: zip, or tar plain or compressed.
///
/// The archive's top folder is the package itself (as `ditto --keepParent`),
/// so expanding it gives the package back; the output is named after the
/// whole input (`Notebook.examplenotebook.zip`), as archivers name archives.
public struct ArchivePackingExporter: Exporter {
  /// The archive format written.
  public var format: ArchiveFormat
  /// The type read: `com.apple.package` or `public.folder`.
  public var sourceType: UTType
  /// How the archive is written (compression, reproducibility); the format is this exporter's.
  public var options: PackOptions

  /// Creates an exporter.
  ///
  /// - Parameters:
  ///   - format: The archive format to write.
  ///   - sourceType: The type read (`com.apple.package`, `public.folder`).
  ///   - options: Compression and reproducibility options.
  public init(
    format: ArchiveFormat, from sourceType: UTType, options: PackOptions = PackOptions()
  ) {
    self.format = format
    self.sourceType = sourceType
    self.options = options
    self.options.format = format
  }

  public var name: String { "pack-\(format.name)" }

  public var targetType: UTType { format.type }

  public func outputName(for input: ExportItem, outputType: UTType, registry: TypeRegistry)
    -> String
  {
    input.fileName + "." + format.fileExtension
  }

  public func export(_ job: ExportJob, progress: consuming Subprogress) async throws -> [Diagnostic]
  {
    _ = try await Packer.pack(job.input.url, to: job.output, options: options, progress: progress)
    return []
  }
}
