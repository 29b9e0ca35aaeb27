import FolioTestSupport
import Foundation
import PropertyLists
import Testing
import TypeValidation
import UniformTypes

@Suite struct ValidatorFilesTests {
  private func binaryPlist(identifier: String) throws -> Data {
    var b = PlistBuilder()
    let root = b.dict([
      ("UTExportedTypeDeclarations", b.array([declarationDict(&b, identifier: identifier)]))
    ])
    return try PropertyListWriter.data(for: root, format: .binary)
  }

  @Test func binaryFilesAreValidatedWithByteOffsetsAndNotedBySchemaPass() throws {
    let data = try binaryPlist(identifier: "public.thing")
    let report = try TypeDeclarationValidator().validate(
      [.init(data: data, displayName: "b.plist")], schema: true)
    #expect(report.diagnostics.map(\.code) == ["schema-skipped", "reserved-identifier"])
    #expect(report.diagnostics.first?.severity == .note)
    let location = try #require(report.diagnostics.last?.location)
    #expect(location.line == nil)
    #expect(location.byteOffset != nil)
    #expect(report.fails(strict: false))
    #expect(report.summary == "1 error, 0 warnings, 1 note in 1 file")
  }

  @Test func namedDeclarationFileThatCannotBeReadIsAnError() async throws {
    try await withTemporaryDirectory("load") { folder in
      let broken = folder.appendingPathComponent("broken.plist")
      try Data("<plist><dict><key>a</key></dict></plist>".utf8).write(to: broken)
      #expect(throws: UniformTypeError.self) {
        try TypeRegistry.load(declarationFiles: [broken])
      }
      // The same file found in a directory is skipped with a warning.
      let (registry, diagnostics) = try TypeRegistry.load(
        declarationFiles: [], declarationDirectories: [folder])
      #expect(diagnostics.map(\.code) == ["unreadable-file"])
      #expect(diagnostics.first?.severity == .warning)
      #expect(registry.isDeclared(UTType.plainText))
    }
  }
}
