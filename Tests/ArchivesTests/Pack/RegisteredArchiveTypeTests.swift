import FolioTestSupport
import Foundation
import Testing
import TypeValidation
import UniformTypes

@testable import Archives

/// An app's own zip-based document type (as `.docx`, `.pages` and `.key` are) packs and
/// expands once it is registered, with no registry passed: there is one registry per
/// process, as Launch Services is one database
/// (https://developer.apple.com/documentation/uniformtypeidentifiers/defining-file-and-data-types-for-your-app).
@Suite struct RegisteredArchiveTypeTests {
  /// Registers a fresh type conforming to `parent` and returns its filename extension
  /// (fresh per test: the registry is shared by parallel tests).
  private static func registerType(conformingTo parent: TypeIdentifier) -> String {
    let stem = UUID().uuidString.prefix(8).lowercased()
    let fileExtension = "sketchbook\(stem)z"
    UTType.registerDeclarations(
      DeclarationSource(
        name: "Sketchbook-\(stem).plist",
        exported: [
          TypeDeclaration(
            identifier: TypeIdentifier("com.example.sketchbook-\(stem).archive"), kind: .exported,
            conformsTo: [parent], tags: [TypeTag(.filenameExtension, fileExtension)])
        ]))
    return fileExtension
  }

  @Test func aRegisteredZipBasedTypeIsPackedAsZipWithDefaultOptions() async throws {
    let fileExtension = Self.registerType(conformingTo: "public.zip-archive")
    #expect(ArchiveFormat(fileName: "Drawing.\(fileExtension)") == .zip)
    try await withTemporaryDirectory("pack-registered") { folder in
      let package = folder.appendingPathComponent("Drawing.sketchbook")
      try FileManager.default.createDirectory(
        at: package.appendingPathComponent("strokes"), withIntermediateDirectories: true)
      try Data(#"{"version":1}"#.utf8).write(to: package.appendingPathComponent("Info.json"))
      try Data("stroke\n".utf8).write(to: package.appendingPathComponent("strokes/1.json"))
      let archive = folder.appendingPathComponent("Drawing.\(fileExtension)")
      let packed = try await Packer.pack(package, to: archive)
      #expect(packed.fileCount == 2)
      // Python's zipfile is the oracle: it reads a zip whatever the name.
      let listing = try runProcess(
        "python3",
        [
          "-c", "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
          archive.path,
        ])
      #expect(listing.status == 0, "\(listing.errorText)")
      #expect(listing.outputText.contains("Drawing.sketchbook/strokes/1.json"))

      // The archive's one top folder becomes the destination.
      let expanded = folder.appendingPathComponent("Copy.sketchbook")
      _ = try await Expander.expand(archive, into: expanded)
      #expect(
        try Data(contentsOf: expanded.appendingPathComponent("Info.json"))
          == Data(#"{"version":1}"#.utf8))
    }
  }

  @Test func aRegisteredGzipTarTypeIsPackedAsTarGzip() {
    let fileExtension = Self.registerType(conformingTo: "org.gnu.gnu-zip-tar-archive")
    #expect(ArchiveFormat(fileName: "Drawing.\(fileExtension)") == .tarGzip)
  }

  @Test func aFormatsOwnExtensionNamesItWhateverADeclarationClaims() throws {
    // A declaration giving `.zip` to a tar type (as a mistaken Info.plist might) does not
    // turn `Notes.zip` into a tar: the name's own extension decides before the registry.
    var builder = TypeRegistryBuilder()
    builder.add(
      TypeDeclaration(
        identifier: "com.example.misnamed-tar", kind: .exported,
        conformsTo: ["public.tar-archive"], tags: [TypeTag(.filenameExtension, "zip")]))
    let registry = builder.build()
    #expect(
      registry.identify(fileName: "Notes.zip", kind: .regularFile).identifier
        == "com.example.misnamed-tar")
    #expect(ArchiveFormat(fileName: "Notes.zip", registry: registry) == .zip)
    #expect(ArchiveFormat(fileName: "Notes.tar.gz", registry: registry) == .tarGzip)
  }

  @Test func anUnregisteredNameStillCannotBeTold() {
    #expect(throws: PackagingError.self) {
      try Packer.format(
        for: URL(fileURLWithPath: "/tmp/Drawing.sketchbookunknownz"), options: PackOptions())
    }
  }
}
