import Folio
import FolioTestSupport
import Foundation
import Observation
import Synchronization
import Testing

/// The model layer of a small document app, written from Apple's documentation rather than
/// from Folio's own examples: a `Sketchbook` package (`Info.json`, `strokes/`,
/// `thumbnails/`) with its own type, a zip-based `.sketchbookz` for sharing, progress shown
/// while it packs, and errors shown as an alert would.
///
/// - Declaring the types: https://developer.apple.com/documentation/uniformtypeidentifiers/defining-file-and-data-types-for-your-app
/// - The package: https://developer.apple.com/documentation/foundation/filewrapper
/// - Progress: https://developer.apple.com/documentation/foundation/progressmanager and
///   https://developer.apple.com/documentation/observation/withobservationtracking(_:onchange:)
/// - Errors: https://developer.apple.com/documentation/foundation/cocoaerror and
///   https://developer.apple.com/documentation/foundation/localizederror
@Suite struct SketchbookModelTests {
  /// The app's Info.plist: its package type and its zip-based exchange type, each with a
  /// fresh identifier and extension (the registry is one per process, shared by tests).
  private struct App {
    let stem = "s" + UUID().uuidString.prefix(6).lowercased()
    var packageType: String { "com.example.sketchbook-\(stem)" }
    var archiveType: String { "com.example.sketchbook-\(stem).archive" }
    var packageExtension: String { "sketchbook\(stem)" }
    var archiveExtension: String { "sketchbook\(stem)z" }

    func infoPlist(packageParent: String = "com.apple.package") -> Data {
      Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
          <key>CFBundleIdentifier</key><string>com.example.sketchbook</string>
          <key>UTExportedTypeDeclarations</key>
          <array>
            <dict>
              <key>UTTypeIdentifier</key><string>\(packageType)</string>
              <key>UTTypeDescription</key><string>Sketchbook</string>
              <key>UTTypeConformsTo</key><array><string>\(packageParent)</string></array>
              <key>UTTypeTagSpecification</key>
              <dict>
                <key>public.filename-extension</key><array><string>\(packageExtension)</string></array>
              </dict>
            </dict>
            <dict>
              <key>UTTypeIdentifier</key><string>\(archiveType)</string>
              <key>UTTypeDescription</key><string>Sketchbook Archive</string>
              <key>UTTypeConformsTo</key><array><string>public.zip-archive</string></array>
              <key>UTTypeTagSpecification</key>
              <dict>
                <key>public.filename-extension</key><array><string>\(archiveExtension)</string></array>
              </dict>
            </dict>
          </array>
        </dict>
        </plist>
        """.utf8)
    }
  }

  /// Counts Observation's change calls.
  private final class Changes: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .acquiring) }
    func fire() { count.add(1, ordering: .acquiringAndReleasing) }
  }

  /// The sketchbook's package, as the app's document builds it.
  private static func sketchbookWrapper() -> FileWrapper {
    let strokes = FileWrapper(directoryWithFileWrappers: [:])
    _ = strokes.addRegularFile(
      withContents: Data(#"{"points":[[0,0],[4,4]]}"#.utf8), preferredFilename: "1.json")
    let thumbnails = FileWrapper(directoryWithFileWrappers: [:])
    _ = thumbnails.addRegularFile(
      withContents: Data([0x89, 0x50, 0x4E, 0x47]), preferredFilename: "cover.png")
    return FileWrapper(directoryWithFileWrappers: [
      "Info.json": FileWrapper(
        regularFileWithContents: Data(#"{"title":"Birds","version":1}"#.utf8)),
      "strokes": strokes,
      "thumbnails": thumbnails,
    ])
  }

  @Test func theAppRegistersItsTypesSavesPacksAndReopensASketchbook() async throws {
    try await withTemporaryDirectory("sketchbook-app") { folder in
      let app = App()
      let plist = folder.appendingPathComponent("Info.plist")
      try app.infoPlist().write(to: plist)
      // At launch, perhaps twice (two scenes): no diagnostics either time.
      #expect(try UTType.registerDeclarations(contentsOf: plist) == [])
      #expect(try UTType.registerDeclarations(contentsOf: plist) == [])
      let sketchbook = try #require(UTType(app.packageType))
      let exchange = try #require(UTType(filenameExtension: app.archiveExtension))
      #expect(sketchbook.conforms(to: .package))
      #expect(exchange.conforms(to: .zip))

      // Save the document's package.
      let document = folder.appendingPathComponent("Birds.\(app.packageExtension)")
      try Self.sketchbookWrapper().write(to: document, options: .atomic, originalContentsURL: nil)
      // `conformingTo` defaults to public.data, which a package is not (as on Apple's systems).
      #expect(
        UTType(filenameExtension: document.pathExtension, conformingTo: .package) == sketchbook)

      // Share it as .sketchbookz, with a progress bar watching the app's own manager.
      let shared = folder.appendingPathComponent("Birds.\(app.archiveExtension)")
      let progress = ProgressManager(totalCount: 1)
      let changes = Changes()
      withObservationTracking {
        _ = progress.fractionCompleted
      } onChange: {
        changes.fire()
      }
      let packed = try await Packer.pack(
        document, to: shared, progress: progress.subprogress(assigningCount: 1))
      #expect(packed.fileCount == 3)
      #expect(progress.fractionCompleted == 1)
      #expect(progress.isFinished)
      #expect(changes.value == 1)

      // Receive it on another device: expand and read the package back.
      let received = folder.appendingPathComponent("Received.\(app.packageExtension)")
      let expanding = ProgressManager(totalCount: 1)
      _ = try await Expander.expand(
        shared, into: received, progress: expanding.subprogress(assigningCount: 1))
      #expect(expanding.isFinished)
      let reopened = try FileWrapper(url: received, options: .immediate)
      let info = try #require(reopened.fileWrappers?["Info.json"]?.regularFileContents)
      #expect(String(decoding: info, as: UTF8.self).contains("Birds"))
      #expect(reopened.fileWrappers?["strokes"]?.fileWrappers?.keys.sorted() == ["1.json"])
      #expect(reopened.fileWrappers?["thumbnails"]?.fileWrappers?.keys.sorted() == ["cover.png"])
    }
  }

  @Test func openingADeletedSketchbookShowsAnAlertTheAppCanCatchByCode() async throws {
    try await withTemporaryDirectory("sketchbook-missing") { folder in
      let missing = folder.appendingPathComponent("Gone.sketchbook")
      var caught = false
      do {
        _ = try FileWrapper(url: missing, options: .immediate)
      } catch CocoaError.fileReadNoSuchFile {
        caught = true
      }
      #expect(caught)
      do {
        _ = try FileWrapper(url: missing)
      } catch let error as CocoaError {
        // The alert's text, and the detail a log keeps.
        #expect(error.localizedDescription.contains("Gone.sketchbook"))
        #expect(!error.localizedDescription.contains("could not be completed"))
        let detail = try #require(error.underlying)
        #expect(detail.localizedDescription.contains(missing.path))
      }
    }
  }

  @Test func aFailedPackShowsItsMessageAndLeavesTheBarComplete() async throws {
    try await withTemporaryDirectory("sketchbook-failed") { folder in
      let progress = ProgressManager(totalCount: 1)
      do {
        _ = try await Packer.pack(
          folder.appendingPathComponent("Absent.sketchbook"),
          to: folder.appendingPathComponent("Absent.zip"),
          progress: progress.subprogress(assigningCount: 1))
        Issue.record("packing a missing sketchbook succeeded")
      } catch {
        #expect(error.localizedDescription.contains("Absent.sketchbook"))
        #expect(!error.localizedDescription.contains("could not be completed"))
      }
      #expect(progress.isFinished)
    }
  }

  @Test func aTypoInTheInfoPlistIsReportedAtLaunch() async throws {
    try await withTemporaryDirectory("sketchbook-typo") { folder in
      let app = App()
      let plist = folder.appendingPathComponent("Info.plist")
      try app.infoPlist(packageParent: "com.apple.pakage").write(to: plist)
      let diagnostics = try UTType.registerDeclarations(contentsOf: plist)
      let typo = try #require(diagnostics.first { $0.message.contains("com.apple.pakage") })
      #expect(typo.hint == "did you mean com.apple.package?")
      #expect(typo.location?.line == 11)
    }
  }
}
