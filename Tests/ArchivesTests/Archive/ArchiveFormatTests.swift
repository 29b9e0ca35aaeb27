import Testing

@testable import Archives

@Suite struct ArchiveFormatTests {
  @Test(arguments: [
    ("Notebook.zip", ArchiveFormat.zip), ("a/b/Notebook.TAR", .tar), ("x.tar.gz", .tarGzip),
    ("x.tgz", .tarGzip), ("x.tar.bz2", .tarBzip2), ("x.tbz2", .tarBzip2), ("x.tar.xz", .tarXz),
    ("x.txz", .tarXz), ("x.tar.zst", .tarZstd), ("x.tzst", .tarZstd),
  ])
  func fileNameExtensionNamesTheFormat(name: String, format: ArchiveFormat) {
    #expect(ArchiveFormat(fileName: name) == format)
  }

  @Test func unknownExtensionsNameNoFormat() {
    #expect(ArchiveFormat(fileName: "Notebook.examplenotebook") == nil)
    #expect(ArchiveFormat(fileName: "gz") == nil)
    #expect(ArchiveFormat(fileName: "archive.gz") == nil)
  }

  @Test func formatWordsAcceptNamesExtensionsAndAliases() {
    #expect(ArchiveFormat(name: "zip") == .zip)
    #expect(ArchiveFormat(name: "tar.zst") == .tarZstd)
    #expect(ArchiveFormat(name: "zstd") == .tarZstd)
    #expect(ArchiveFormat(name: "TGZ") == .tarGzip)
    #expect(ArchiveFormat(name: "rar") == nil)
  }

  @Test func typesMapToTheMostSpecificFormat() {
    #expect(ArchiveFormat(type: "com.facebook.zstandard-tar-archive") == .tarZstd)
    #expect(ArchiveFormat(type: "org.gnu.gnu-zip-tar-archive") == .tarGzip)
    #expect(ArchiveFormat(type: "public.zip-archive") == .zip)
    #expect(ArchiveFormat(type: "org.gnu.gnu-zip-archive") == nil)
    #expect(ArchiveFormat(type: "public.plain-text") == nil)
    for format in ArchiveFormat.allCases {
      #expect(ArchiveFormat(type: format.typeIdentifier) == format)
    }
  }

  @Test func everyFormatRoundTripsItsOwnExtension() {
    for format in ArchiveFormat.allCases {
      #expect(ArchiveFormat(fileName: "a." + format.fileExtension) == format)
      #expect(ArchiveFormat(name: format.name) == format)
      if let levels = format.compressionLevels, let level = format.defaultCompressionLevel {
        #expect(levels.contains(level))
      }
    }
  }
}
