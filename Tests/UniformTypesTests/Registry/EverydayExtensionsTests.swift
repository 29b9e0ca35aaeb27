import FolioTestSupport
import Foundation
import Testing
import UniformTypes

/// The 39 everyday extensions of issue 14 (22 of them gave a `dyn.` type before Folio knew
/// Apple's full table and the desktop's database) resolve to declared types.
@Suite struct EverydayExtensionsTests {
  static let extensions = [
    "docx", "xlsx", "pptx", "odt", "ods", "odp", "epub", "webp", "mkv", "webm", "flac", "wasm",
    "toml", "sqlite", "deb", "rpm", "jar", "heic", "avif", "svg", "ogg", "opus", "m4a", "mp3",
    "mp4", "mov", "wav", "csv", "md", "yaml", "json", "xml", "html", "py", "swift", "rs", "go",
    "sh", "7z",
  ]
  /// Those only the Linux desktop's database declares.
  static let desktopOnly: Set<String> = [
    "mkv", "toml", "deb", "rpm", "avif", "ogg", "opus", "rs", "go",
  ]

  @Test func withAppleTablesAloneAllButTheDesktopsOwnResolve() {
    #expect(Self.extensions.count == 39)
    for name in Self.extensions where !Self.desktopOnly.contains(name) {
      let type = TypeRegistry.system.identifier(forFileNamed: "file.\(name)", kind: .regularFile)
      #expect(TypeRegistry.system.isDeclared(type), "\(name) → \(type)")
    }
  }

  @Test(
    .enabled(
      if: SharedMIMEInfo.isInstalled, "shared-mime-info is not installed (bootstrap.sh installs it)"
    ))
  func withTheDesktopDatabaseEveryOneResolves() {
    let system = SharedMIMEInfo.root
    var builder = TypeRegistryBuilder()
    builder.add(MIMEDatabase.load(mimeDirectories: [system], languages: []))
    let registry = builder.build()
    for name in Self.extensions {
      let type = registry.identifier(forFileNamed: "file.\(name)", kind: .regularFile)
      #expect(registry.isDeclared(type), "\(name) → \(type)")
      #expect(!type.isDynamic, "\(name)")
    }
    #expect(
      registry.identifier(forFileNamed: "a.mkv", kind: .regularFile)
        == "org.freedesktop.mime.video.x-matroska")
    #expect(registry.conforms("org.freedesktop.mime.video.x-matroska", to: .movie))
    #expect(
      registry.identifier(forFileNamed: "a.docx", kind: .regularFile)
        == "org.openxmlformats.wordprocessingml.document")
  }
}
