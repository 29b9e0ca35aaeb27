import FolioTestSupport
import Foundation
import Testing
import UniformTypes

@Suite struct SystemTypesTests {
  let registry = TypeRegistry.system

  @Test func everyParentInTheTableIsDeclared() {
    #expect(registry.undeclaredIdentifiers.isEmpty)
  }

  @Test func noSystemTypeIsOnACycle() {
    for declaration in registry.declarations {
      #expect(!registry.isOnCycle(declaration.identifier), "\(declaration.identifier)")
    }
  }

  @Test func everyCommonConstantIsDeclared() {
    let constants: [TypeIdentifier] = [
      .item, .content, .compositeContent, .data, .directory, .folder, .volume, .package, .bundle,
      .applicationBundle, .symlink, .executable, .url, .fileURL, .text, .plainText,
      .utf8PlainText, .utf16PlainText, .sourceCode, .json, .xml, .propertyList,
      .xmlPropertyList, .binaryPropertyList, .html, .rtf, .markdown, .commaSeparatedText,
      .tabSeparatedText, .image, .jpeg, .png, .tiff, .gif, .heic, .svg, .pdf,
      .audiovisualContent, .movie, .audio, .mpeg4Movie, .mp3, .font, .spreadsheet,
      .presentation, .archive, .zipArchive, .tarArchive, .gzip, .gzipTarArchive, .bzip2,
      .bzip2TarArchive, .xz, .xzTarArchive, .zstandard, .zstandardTarArchive, .diskImage,
    ]
    for constant in constants {
      #expect(registry.isDeclared(constant), "\(constant)")
    }
  }

  @Test func researchTableRowsAreAllPresentWithTheirParents() throws {
    // Every row of the research table beside SystemTypeTable.swift, with its direct parents.
    let url = ProjectPaths.systemTypesTable
    let text = try String(contentsOf: url, encoding: .utf8)
    for line in text.split(separator: "\n").dropFirst() {
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      let identifier = TypeIdentifier(columns[0])
      let declaration = try #require(registry.declaration(for: identifier), "\(identifier)")
      let parents = columns[1].split(separator: " ").map { TypeIdentifier(String($0)) }
      #expect(Set(declaration.parents).isSuperset(of: parents), "\(identifier)")
      for filenameExtension in columns[2].split(separator: " ") {
        #expect(declaration.filenameExtensions.contains(String(filenameExtension)), "\(identifier)")
      }
    }
  }

  @Test(arguments: [
    ("zip", TypeIdentifier.zipArchive), ("tar", .tarArchive), ("gz", .gzip),
    ("tgz", .gzipTarArchive), ("tar.gz", .gzipTarArchive), ("bz2", .bzip2),
    ("tbz2", .bzip2TarArchive), ("tar.bz2", .bzip2TarArchive), ("xz", .xz),
    ("txz", .xzTarArchive), ("tar.xz", .xzTarArchive), ("zst", .zstandard),
    ("tzst", .zstandardTarArchive), ("tar.zst", .zstandardTarArchive),
    ("plist", .propertyList), ("md", .markdown), ("TXT", .plainText), (".json", .json),
    ("mp4", .mpeg4Movie), ("jpg", .jpeg),
  ])
  func archiveAndCommonExtensionsResolve(filenameExtension: String, expected: TypeIdentifier) {
    #expect(registry.type(forFilenameExtension: filenameExtension) == expected)
  }

  @Test func compressedFormatsConformToArchiveAndMediaToTheirKinds() {
    for archive: TypeIdentifier in [
      .zipArchive, .tarArchive, .gzip, .gzipTarArchive, .bzip2TarArchive, .xzTarArchive,
      .zstandardTarArchive, "org.7-zip.7-zip-archive", "com.apple.disk-image-udif",
    ] {
      #expect(registry.conforms(archive, to: .archive), "\(archive)")
      #expect(registry.conforms(archive, to: .data), "\(archive)")
    }
    #expect(registry.conforms(.png, to: .image))
    #expect(registry.conforms(.heic, to: .image))
    #expect(registry.conforms(.mp3, to: .audiovisualContent))
    #expect(registry.conforms(.mpeg4Movie, to: .movie))
    #expect(!registry.conforms(.plainText, to: .archive))
    #expect(!registry.conforms(.package, to: .data))
    #expect(registry.conforms(.applicationBundle, to: .package))
  }
}
