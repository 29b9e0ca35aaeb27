import FolioSystem
public import FoundationEssentials
import Glibc
public import ProgressReporting
public import PropertyLists
public import UniformTypes

/// Turns a document of one content type into a document of another.
///
/// An exporter declares the type it reads (``sourceType``) and the type it writes
/// (``targetType``). Conformance is built in: an exporter registered for
/// `com.apple.package → public.zip-archive` serves every type that conforms to
/// `com.apple.package`, such as `com.example.notebook`. ``ExportPlan`` picks the
/// most specific exporter for an input, or a chain of them.
public protocol Exporter: Sendable {
  /// A short, stable name that `--explain` and `--list` show (`notebook-to-text`).
  var name: String { get }
  /// The type the exporter reads; any type conforming to it is accepted.
  var sourceType: UTType { get }
  /// The type the exporter writes.
  var targetType: UTType { get }

  /// The precise type the exporter will write for an input.
  ///
  /// Most exporters always write ``targetType``; an archive expander writes
  /// whatever the archive holds, which its name tells (`Notes.examplenotebook.zip`
  /// expands to a notebook).
  ///
  /// - Parameters:
  ///   - input: The input the exporter would read.
  ///   - registry: The types known: by default the process's (``TypeRegistry/default``).
  /// - Returns: The output's type; it conforms to ``targetType``.
  func outputType(for input: ExportItem, registry: TypeRegistry) -> UTType

  /// The file name the output gets when the user does not choose one.
  ///
  /// - Parameters:
  ///   - input: The input.
  ///   - outputType: The type the output will have.
  ///   - registry: The types known, for preferred extensions.
  /// - Returns: A file name (one path component).
  func outputName(for input: ExportItem, outputType: UTType, registry: TypeRegistry)
    -> String

  /// Runs the export.
  ///
  /// - Parameters:
  ///   - job: The input, and the path to create the output at (nothing exists there yet).
  ///   - progress: The share of the caller's progress this export reports on.
  /// - Returns: Warnings about the input or about content the target cannot carry.
  /// - Throws: ``ExportError`` (or a lower layer's error) naming what failed.
  func export(_ job: ExportJob, progress: consuming Subprogress) async throws -> [Diagnostic]
}

extension Exporter {
  public func outputType(for input: ExportItem, registry: TypeRegistry) -> UTType {
    targetType
  }

  public func outputName(
    for input: ExportItem, outputType: UTType, registry: TypeRegistry
  ) -> String {
    ExportNaming.replacingExtension(of: input, with: outputType, registry: registry)
  }
}

/// A document an export reads: where it is, what type it has, how to name it.
public struct ExportItem: Sendable, Hashable {
  /// The file or package folder.
  public var url: URL
  /// Its content type.
  public var type: UTType
  /// Its name in messages (the path the user typed, `-` for standard input).
  public var displayName: String
  /// Its file name, from which output names are derived.
  public var fileName: String

  /// Creates an item.
  ///
  /// - Parameters:
  ///   - url: The file or package folder.
  ///   - type: Its content type.
  ///   - displayName: Its name in messages (defaults to the path).
  ///   - fileName: The name output names derive from (defaults to the last path component).
  public init(url: URL, type: UTType, displayName: String? = nil, fileName: String? = nil) {
    self.url = url
    self.type = type
    self.displayName = displayName ?? url.path
    self.fileName = fileName ?? url.lastPathComponent
  }
}

/// One run of one exporter: its input, where to write, and the types involved.
public struct ExportJob: Sendable {
  /// The document to read.
  public var input: ExportItem
  /// Where to create the output (a file or a folder); nothing exists there yet.
  public var output: URL
  /// The type the output will have.
  public var outputType: UTType
  /// The output's name in messages.
  public var outputDisplayName: String
  /// The types known.
  public var registry: TypeRegistry

  /// Creates a job.
  ///
  /// - Parameters:
  ///   - input: The document to read.
  ///   - output: Where to create the output.
  ///   - outputType: The type the output will have.
  ///   - outputDisplayName: The output's name in messages.
  ///   - registry: The types known: by default the process's (``TypeRegistry/default``).
  public init(
    input: ExportItem, output: URL, outputType: UTType, outputDisplayName: String? = nil,
    registry: TypeRegistry = .default
  ) {
    self.input = input
    self.output = output
    self.outputType = outputType
    self.outputDisplayName = outputDisplayName ?? output.lastPathComponent
    self.registry = registry
  }

  /// Creates the output file, lets `body` fill it, and syncs it to disk.
  ///
  /// - Parameter body: Writes the content.
  /// - Throws: ``ExportError`` `write-failed`, or whatever `body` throws (the partial file is removed).
  public func writeOutputFile(_ body: (ExportOutputFile) throws -> Void) throws {
    let descriptor = SystemCall.retryingInterrupts {
      open(output.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
    }
    guard descriptor >= 0 else {
      throw ExportError(
        .writeFailed, "cannot create '\(outputDisplayName)'", cause: SystemError.current)
    }
    defer { close(descriptor) }
    do {
      let handle = ExportOutputFile(fileDescriptor: descriptor, displayName: outputDisplayName)
      try body(handle)
      try AtomicOutput.synchronize(descriptor, display: outputDisplayName)
    } catch let error as ExportError {
      FileTree.remove(atPath: output.path)
      throw error
    } catch {
      FileTree.remove(atPath: output.path)
      throw ExportError(.writeFailed, "cannot write '\(outputDisplayName)'", cause: error)
    }
  }
}
