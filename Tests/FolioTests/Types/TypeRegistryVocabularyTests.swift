import Folio
import FolioTestSupport
import Foundation
import Testing

/// The registry, its declarations and the exporters as a program sees them through
/// `import Folio`: types are `UTType` values, tag classes `UTTagClass` values, and what a
/// property list wrote stays a string.
@Suite struct TypeRegistryVocabularyTests {
  /// An Info.plist with a misspelt import, a notebook package type and a document type.
  private let infoPlist = """
    <plist version="1.0">
    <dict>
      <key>UTImportedTypeDeclarations</key>
      <array>
        <dict>
          <key>UTTypeIdentifier</key><string>com.example.bad identifier</string>
          <key>UTTypeConformsTo</key><array><string>Public.Data</string></array>
        </dict>
      </array>
      <key>UTExportedTypeDeclarations</key>
      <array>
        <dict>
          <key>UTTypeIdentifier</key><string>com.example.vocabulary-notebook</string>
          <key>UTTypeConformsTo</key><array><string>com.apple.package</string></array>
          <key>UTTypeTagSpecification</key>
          <dict>
            <key>public.filename-extension</key><array><string>vocabnotebook</string></array>
            <key>public.mime-type</key><array><string>application/x-vocabulary-notebook</string></array>
          </dict>
        </dict>
      </array>
      <key>CFBundleDocumentTypes</key>
      <array>
        <dict>
          <key>LSItemContentTypes</key><array><string>com.example.vocabulary-notebook</string></array>
        </dict>
      </array>
    </dict>
    </plist>
    """

  private func registry(in folder: URL) throws -> (TypeRegistry, DeclarationSource) {
    let url = folder.appendingPathComponent("Info.plist")
    try Data(infoPlist.utf8).write(to: url)
    let source = try DeclarationSource(contentsOf: url)
    return (TypeRegistry(loading: [source]), source)
  }

  @Test func aLoadedRegistryAnswersInUTTypes() async throws {
    try await withTemporaryDirectory("vocabulary") { folder in
      let (registry, _) = try registry(in: folder)
      let notebook = try #require(registry.type(withIdentifier: "COM.EXAMPLE.vocabulary-notebook"))
      #expect(notebook.identifier == "com.example.vocabulary-notebook")
      #expect(registry.conforms(notebook, to: .package))
      #expect(!registry.conforms(notebook, to: .data))
      #expect(registry.supertypes(of: notebook).prefix(2) == [.package, .directory])
      #expect(registry.parents(of: notebook) == [.package])
      #expect(registry.type(forFilenameExtension: ".vocabnotebook") == notebook)
      #expect(registry.types(forMIMEType: "application/x-vocabulary-notebook") == [notebook])
      #expect(
        registry.preferredTag(.mimeType, for: notebook) == "application/x-vocabulary-notebook")
      #expect(registry.preferredFilenameExtension(for: notebook) == "vocabnotebook")
      #expect(registry.types(forTag: "vocabnotebook", tagClass: .filenameExtension) == [notebook])
      #expect(registry.resolve("vocabnotebook") == notebook)
      #expect(registry.identify(fileName: "A.vocabnotebook", kind: .directory) == notebook)
      #expect(registry.types(conformingTo: notebook) == [notebook])
      #expect(registry.declaration(for: notebook)?.filenameExtensions == ["vocabnotebook"])
      #expect(registry.isDeclared(notebook))
      // The process's registry has not registered the type: the value answers from there.
      #expect(registry.type(withIdentifier: "com.example.not-declared") == nil)
      #expect(UTType("com.example.vocabulary-notebook") == nil)
    }
  }

  @Test func declarationsKeepTheTextThePropertyListWrote() async throws {
    try await withTemporaryDirectory("vocabulary") { folder in
      let (_, source) = try registry(in: folder)
      let imported = try #require(source.imported.first)
      #expect(imported.identifier == "com.example.bad identifier")
      #expect(imported.conformsTo.map(\.value) == ["Public.Data"])
      #expect(imported.conformsTo.first?.location?.line == 7)
      #expect(
        source.documentTypes.first?.contentTypes.map(\.value) == [
          "com.example.vocabulary-notebook"
        ])
    }
  }

  @Test func identificationNamesAUTType() {
    let identification = TypeRegistry.system.identification(
      forFileNamed: "notes.txt", kind: .regularFile, content: nil)
    #expect(identification.type == .plainText)
    #expect(identification.candidates.first?.type == .plainText)
    #expect(ArchiveFormat.zip.type == .zip)
    #expect(ArchiveFormat(type: .zip) == .zip)
  }

  /// A program's own exporter: it names its types with UTType, as the protocol asks.
  private struct ShoutingExporter: Exporter {
    var name: String { "shout" }
    var sourceType: UTType { .plainText }
    var targetType: UTType { .utf8PlainText }

    func export(_ job: ExportJob, progress: consuming Subprogress) async throws -> [Diagnostic] {
      let text = try String(contentsOf: job.input.url, encoding: .utf8)
      try job.writeOutputFile { try $0.write(contentsOf: Array(text.uppercased().utf8)) }
      return []
    }
  }

  @Test func aCustomExporterPlansAndRunsInUTTypes() async throws {
    try await withTemporaryDirectory("vocabulary") { folder in
      let input = folder.appendingPathComponent("notes.md")
      try Data("quiet\n".utf8).write(to: input)
      let item = ExportItem(url: input, type: .plainText)
      let exporters = ExporterRegistry([ShoutingExporter()])
      #expect(
        exporters.exporters(accepting: .utf8PlainText, registry: .system).map(\.name) == [
          "shout"
        ])
      let plan = try ExportPlan.make(
        for: item, to: .utf8PlainText, exporters: exporters, registry: .system)
      #expect(plan.resultType == .utf8PlainText)
      let output = folder.appendingPathComponent(plan.defaultOutputName)
      let result = try await plan.run(to: output, replacePolicy: .refuse)
      #expect(result.type == .utf8PlainText)
      #expect(try String(contentsOf: output, encoding: .utf8) == "QUIET\n")
    }
  }
}
