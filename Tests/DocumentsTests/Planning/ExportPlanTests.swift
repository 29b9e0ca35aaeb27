import Archives
import Documents
import FolioTestSupport
import Foundation
import Notebooks
import ProgressReporting
import PropertyLists
import Testing
import UniformTypes

/// The system types, Folio's export types and the sample's notebook declaration.
func notebookRegistry() -> TypeRegistry {
  var builder = TypeRegistryBuilder()
  builder.addExportTypes()
  builder.add(
    TypeDeclaration(
      identifier: "com.example.notebook", kind: .exported,
      conformsTo: ["com.apple.package", "public.composite-content"],
      tags: [TypeTag(.filenameExtension, "examplenotebook")]))
  return builder.build()
}

/// An exporter that only records that it ran, for planning tests.
struct RecordingExporter: Exporter {
  var name: String
  var sourceType: UTType
  var targetType: UTType
  func export(_ job: ExportJob, progress: consuming Subprogress) async throws -> [Diagnostic] {
    try Data(name.utf8).write(to: job.output)
    return []
  }
}

@Suite struct ExportPlanTests {
  let registry = notebookRegistry()

  private func item(_ name: String, _ type: UTType) -> ExportItem {
    ExportItem(url: URL(fileURLWithPath: "/tmp/\(name)"), type: type, displayName: name)
  }

  @Test func exporterRegisteredForASupertypeServesConformingTypes() throws {
    let exporters = ExporterRegistry([
      RecordingExporter(name: "package-to-zip", sourceType: .package, targetType: .zip)
    ])
    let plan = try ExportPlan.make(
      for: item("N.examplenotebook", UTType(resolved: "com.example.notebook")), to: .zip,
      exporters: exporters,
      registry: registry)
    #expect(plan.steps.map(\.exporter.name) == ["package-to-zip"])
    #expect(plan.steps[0].summary.contains("registered for com.apple.package → public.zip-archive"))
  }

  @Test func mostSpecificExporterWins() throws {
    let exporters = ExporterRegistry([
      RecordingExporter(name: "generic", sourceType: .package, targetType: .zip),
      RecordingExporter(
        name: "notebook-special", sourceType: UTType(resolved: "com.example.notebook"),
        targetType: .zip),
    ])
    let plan = try ExportPlan.make(
      for: item("N.examplenotebook", UTType(resolved: "com.example.notebook")), to: .zip,
      exporters: exporters,
      registry: registry)
    #expect(plan.steps.map(\.exporter.name) == ["notebook-special"])
  }

  @Test func missingDirectExporterIsBridgedByAChain() throws {
    let exporters = ExporterRegistry([
      RecordingExporter(
        name: "unzip", sourceType: .zip, targetType: UTType(resolved: "com.example.notebook")),
      RecordingExporter(
        name: "notebook-to-text", sourceType: UTType(resolved: "com.example.notebook"),
        targetType: .utf8PlainText),
    ])
    let plan = try ExportPlan.make(
      for: item("N.zip", .zip), to: .plainText, exporters: exporters, registry: registry)
    #expect(plan.steps.map(\.exporter.name) == ["unzip", "notebook-to-text"])
    #expect(plan.resultType == .utf8PlainText)
    #expect(plan.explanation.contains("step 1: unzip (public.zip-archive → com.example.notebook)"))
    #expect(
      plan.explanation.contains {
        $0.hasPrefix("step 2: notebook-to-text (com.example.notebook → public.utf8-plain-text)")
      })
  }

  @Test func noRouteIsAnErrorNamingBothTypes() {
    let error = #expect(throws: ExportError.self) {
      try ExportPlan.make(
        for: item("photo.png", .png), to: .plainText, exporters: .builtIn.addingNotebookExporters(),
        registry: registry)
    }
    #expect(error?.code == .noRoute)
    #expect(error?.message.contains("public.png") == true)
    #expect(error?.message.contains("public.plain-text") == true)
  }

  @Test func builtInNotebookRoutes() throws {
    let notebook = item("Notebook.examplenotebook", UTType(resolved: "com.example.notebook"))
    let plans = ExportPlan.reachablePlans(
      for: notebook, exporters: .builtIn.addingNotebookExporters(), registry: registry)
    let routes = Dictionary(
      uniqueKeysWithValues: plans.map { ($0.target.identifier, $0.routeDescription) })
    #expect(routes["public.utf8-plain-text"] == "notebook-to-text")
    #expect(routes["net.daringfireball.markdown"] == "notebook-to-markdown")
    #expect(routes["public.html"] == "notebook-to-html")
    #expect(routes["public.json"] == "notebook-to-json")
    #expect(routes["public.utf16-plain-text"] == "notebook-to-text → encode-utf16")
    #expect(routes["com.example.notebook"] == nil)
  }

  @Test func defaultOutputNamesFollowThePreferredExtension() throws {
    let notebook = item("Notebook.examplenotebook", UTType(resolved: "com.example.notebook"))
    let text = try ExportPlan.make(
      for: notebook, to: .plainText, exporters: .builtIn.addingNotebookExporters(),
      registry: registry)
    #expect(text.defaultOutputName == "Notebook.txt")
    let markdown = try ExportPlan.make(
      for: notebook, to: .markdown, exporters: .builtIn.addingNotebookExporters(),
      registry: registry)
    #expect(markdown.defaultOutputName == "Notebook.md")
    let utf16 = try ExportPlan.make(
      for: item("notes.txt", .plainText), to: .utf16PlainText,
      exporters: .builtIn.addingNotebookExporters(),
      registry: registry)
    #expect(utf16.defaultOutputName == "notes-utf16.txt")
  }

  /// A single export's `--jobs` (or `FOLIO_JOBS`) reaches its packing and expanding steps,
  /// as it reaches `pack` and `expand`; an exporter that names its own count keeps it.
  @Test func thePlansJobsReachItsPackingAndExpandingSteps() throws {
    let exporters = ExporterRegistry([
      ArchiveExpandingExporter(format: .zip),
      ArchivePackingExporter(format: .tar, from: .folder),
    ])
    var plan = try ExportPlan.make(
      for: item("N.zip", .zip), to: .tarArchive, exporters: exporters, registry: registry)
    #expect(plan.steps.count == 2)
    #expect((plan.exporter(forStep: 0) as? ArchiveExpandingExporter)?.policy.jobs == nil)
    plan.jobs = 3
    #expect((plan.exporter(forStep: 0) as? ArchiveExpandingExporter)?.policy.jobs == 3)
    #expect((plan.exporter(forStep: 1) as? ArchivePackingExporter)?.options.jobs == 3)
    var own = PackOptions()
    own.jobs = 1
    plan.steps[1].exporter = ArchivePackingExporter(format: .tar, from: .folder, options: own)
    #expect((plan.exporter(forStep: 1) as? ArchivePackingExporter)?.options.jobs == 1)
  }
}
