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
      #expect(!registry.isOnCycle(declaration.typeIdentifier), "\(declaration.typeIdentifier)")
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

  @Test func generatedRowsAreCurrentWithTheTable() throws {
    // scripts/generate-system-types.py --check exits 1 when SystemTypeTable+Rows.swift is stale.
    let script = ProjectPaths.root.appendingPathComponent("scripts/generate-system-types.py")
    let result = try runProcess("python3", [script.path, "--check"])
    #expect(result.status == 0, "\(result.errorText)")
  }

  @Test func everyHeaderConstantAndTheIssuesExamplesResolveWithTheirParents() throws {
    // Every identifier UTCoreTypes.h names (the table's sdk-header rows) is declared.
    let text = try String(contentsOf: ProjectPaths.systemTypesTable, encoding: .utf8)
    var headerConstants = 0
    for line in text.split(separator: "\n").dropFirst() {
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard columns.last?.contains("sdk-header") == true else { continue }
      headerConstants += 1
      #expect(registry.isDeclared(TypeIdentifier(String(columns[0]))), "\(columns[0])")
    }
    #expect(headerConstants >= 130)
    let parents: [(TypeIdentifier, [TypeIdentifier])] = [
      ("public.video", ["public.movie"]), ("public.3gpp", ["public.movie"]),
      ("public.swift-source", ["public.source-code"]),
      ("org.idpf.epub-container", ["public.data", "public.composite-content"]),
      (
        "org.openxmlformats.wordprocessingml.document",
        ["org.openxmlformats.openxml", "public.composite-content"]
      ),
      ("com.apple.iWork.Pages.pages", ["com.apple.package", "public.composite-content"]),
      ("com.apple.iWork.Pages.sffpages", ["public.data", "public.composite-content"]),
      ("com.apple.iWork.Numbers.numbers", ["com.apple.package"]),
      ("com.apple.iWork.Keynote.key", ["com.apple.package", "public.presentation"]),
      ("public.tar-archive", ["public.data", "public.archive"]),
    ]
    for (identifier, expected) in parents {
      let declared = try #require(registry.declaration(for: identifier), "\(identifier)")
      #expect(Set(declared.parents).isSuperset(of: expected), "\(identifier)")
    }
    #expect(registry.conforms("public.video", to: .audiovisualContent))
    #expect(registry.conforms("com.apple.iWork.Pages.pages", to: .package))
  }

  @Test(arguments: [
    // Several system types claim these; Apple's ranking (the table's preferred_for column,
    // the declaring type over importers, public over others, data over packages) decides.
    ("plist", TypeIdentifier.propertyList), ("mp4", .mpeg4Movie), ("aif", "public.aiff-audio"),
    ("cdda", "public.cdda-audio"), ("aa", "com.audible.aa-audiobook"),
    ("m4b", "com.apple.protected-mpeg-4-audio-b"), ("otf", "public.opentype-font"),
    ("xml", .xml), ("smf", "public.midi-audio"), ("pkg", "com.apple.installer-package-archive"),
    ("pages", "com.apple.iWork.Pages.sffpages"), ("key", "com.apple.iWork.Keynote.sffkey"),
    ("application/msword", "com.microsoft.word.doc"),
    ("application/vnd.ms-powerpoint", "com.microsoft.powerpoint.ppt"),
    ("application/x-msdownload", "com.microsoft.windows-executable"),
    ("audio/mp4a-latm", "public.mpeg-4-audio"),
  ])
  func sharedTagsRankAsAppleRanksThem(tag: String, expected: TypeIdentifier) {
    let first =
      tag.contains("/")
      ? registry.identifier(forMIMEType: tag) : registry.identifier(forFilenameExtension: tag)
    #expect(first == expected, "\(tag)")
    let all =
      tag.contains("/")
      ? registry.identifiers(forMIMEType: tag) : registry.identifiers(forFilenameExtension: tag)
    #expect(all.count > 1, "\(tag) is shared")
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
    #expect(registry.identifier(forFilenameExtension: filenameExtension) == expected)
  }

  @Test func compressedFormatsConformToArchiveAndMediaToTheirKinds() {
    for archive: TypeIdentifier in [
      .zipArchive, .tarArchive, .gzip, .gzipTarArchive, .bzip2TarArchive, .xzTarArchive,
      .zstandardTarArchive, "org.7-zip.7-zip-archive", "com.apple.disk-image-udif",
    ] {
      #expect(registry.conforms(archive, to: .archive), "\(archive)")
      #expect(registry.conforms(archive, to: .data), "\(archive)")
    }
    #expect(registry.conforms(UTType.png, to: .image))
    #expect(registry.conforms(UTType.heic, to: .image))
    #expect(registry.conforms(UTType.mp3, to: .audiovisualContent))
    #expect(registry.conforms(UTType.mpeg4Movie, to: .movie))
    #expect(!registry.conforms(UTType.plainText, to: .archive))
    #expect(!registry.conforms(UTType.package, to: .data))
    #expect(registry.conforms(UTType.applicationBundle, to: .package))
  }
}
