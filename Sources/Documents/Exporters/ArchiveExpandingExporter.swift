public import Archives
import FolioSystem
import FoundationEssentials
public import ProgressReporting
public import PropertyLists
public import UniformTypes

/// Expands an archive into a folder with ``Expander``, with all its safety rules.
///
/// Unsafe names, links leaving the folder, devices, and size, count and ratio
/// limits are refused before anything is written (see ``ExpansionPolicy``); an
/// archive whose entries share one top folder expands *as* that folder. What
/// the folder is comes from the archive's name without its extension:
/// `Notebook.examplenotebook.zip` expands to a notebook when the registry knows
/// `examplenotebook`, so an export can go on from there (zipped notebook →
/// notebook → text).
public struct ArchiveExpandingExporter: Exporter {
  /// The archive format read.
  public var format: ArchiveFormat
  /// The safety limits.
  public var policy: ExpansionPolicy

  /// Creates an exporter.
  ///
  /// - Parameters:
  ///   - format: The archive format read (its type is the exporter's source type).
  ///   - policy: The safety limits.
  public init(format: ArchiveFormat, policy: ExpansionPolicy = .default) {
    self.format = format
    self.policy = policy
  }

  public var name: String { "expand-\(format.name)" }

  public var sourceType: UTType { format.type }

  public var targetType: UTType { .directory }

  public func outputName(for input: ExportItem, outputType: UTType, registry: TypeRegistry)
    -> String
  {
    predictedName(for: input, registry: registry)
  }

  public func outputType(for input: ExportItem, registry: TypeRegistry) -> UTType {
    registry.identify(fileName: predictedName(for: input, registry: registry), kind: .directory)
  }

  /// The name the expanded folder gets: the archive's top folder when that names a
  /// package (`n.zip` holding `Notes.examplenotebook/`), else the archive's name
  /// without its extension.
  func predictedName(for input: ExportItem, registry: TypeRegistry) -> String {
    let byArchiveName = ExportNaming.baseName(
      of: input.fileName, type: input.type, registry: registry)
    guard !policy.keepsTopFolder, let top = Self.firstTopComponent(of: input.url),
      registry.identify(fileName: byArchiveName, kind: .directory) == .folder,
      registry.identify(fileName: top, kind: .directory) != .folder
    else { return byArchiveName }
    return top
  }

  /// The first path component of an archive's first entry, read without expanding anything.
  static func firstTopComponent(of archive: URL) -> String? {
    struct Found: Error { var name: String? }
    do {
      try ArchiveLister.forEachEntry(in: archive) { entry in
        let components = (entry.name.string ?? "").split(separator: "/").filter { $0 != "." }
        let isFolder = entry.kind == .directory || components.count > 1
        throw Found(name: isFolder ? components.first.map(String.init) : nil)
      }
    } catch let found as Found {
      return found.name
    } catch {
      return nil
    }
    return nil
  }

  public func export(_ job: ExportJob, progress: consuming Subprogress) async throws -> [Diagnostic]
  {
    let result = try await Expander.expand(
      job.input.url, into: job.output, policy: policy, replacePolicy: .refuse, progress: progress)
    return result.skippedEntries.map { entry in
      Diagnostic(
        severity: .warning, code: "FOLIO-EXPORT-SKIPPED-ENTRY",
        message: "'\(job.input.displayName)': entry '\(entry)' was skipped",
        location: SourceLocation(file: job.input.displayName))
    }
  }
}
