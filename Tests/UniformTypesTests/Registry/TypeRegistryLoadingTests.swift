import FolioTestSupport
import Foundation
import Testing
import UniformTypes

@Suite struct TypeRegistryLoadingTests {
  /// An app's Info.plist declaring a zip-based document type.
  private static let declarations = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
      <key>UTExportedTypeDeclarations</key>
      <array>
        <dict>
          <key>UTTypeIdentifier</key><string>com.example.sketchbook</string>
          <key>UTTypeDescription</key><string>Sketchbook</string>
          <key>UTTypeConformsTo</key><array><string>public.zip-archive</string></array>
          <key>UTTypeTagSpecification</key>
          <dict>
            <key>public.filename-extension</key><array><string>sketchbook</string></array>
            <key>public.mime-type</key><array><string>application/x-sketchbook</string></array>
          </dict>
        </dict>
      </array>
    </dict>
    </plist>
    """

  @Test func aRegistryLoadedInBackgroundAnswersAsOneLoadedAtOnce() async throws {
    try await withTemporaryDirectory("registry-background") { folder in
      try Data(Self.declarations.utf8).write(to: folder.appendingPathComponent("Sketch.plist"))
      // Skipped by both, as an unreadable file in a folder is.
      try Data("<plist><dict><key>a</key></dict></plist>".utf8)
        .write(to: folder.appendingPathComponent("broken.plist"))
      let (atOnce, _) = try TypeRegistry.load(
        declarationFiles: [], declarationDirectories: [folder])
      let inBackground = TypeRegistry.loadingInBackground(declarationDirectories: [folder])
      #expect(inBackground.sourceNames == atOnce.sourceNames)
      #expect(inBackground.sourceNames.count == 1)
      #expect(inBackground.conforms("com.example.sketchbook", to: "public.zip-archive"))
      for name in ["a.sketchbook", "a.zip", "a.txt", "a.unknownextension"] {
        #expect(
          inBackground.identify(fileName: name, kind: .regularFile)
            == atOnce.identify(fileName: name, kind: .regularFile))
      }
      #expect(
        inBackground.identify(fileName: "a.sketchbook", kind: .regularFile).identifier
          == "com.example.sketchbook")
      #expect(
        inBackground.supertypes(of: "com.example.sketchbook")
          == atOnce.supertypes(of: "com.example.sketchbook"))
      #expect(inBackground.declarations.count == atOnce.declarations.count)
    }
  }
}
