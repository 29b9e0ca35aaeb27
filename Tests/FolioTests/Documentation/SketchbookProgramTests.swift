import Folio
import FolioTestSupport
import Foundation
import Testing

// A model layer written from Apple's documentation alone, not from Folio's examples: a
// `Sketchbook` package document (`Info.json`, `strokes/`, `thumbnails/`) as SwiftUI's
// FileDocument, with the Foundation and Uniform Type Identifiers calls such an app makes.
//   https://developer.apple.com/documentation/swiftui/filedocument
//   https://developer.apple.com/documentation/foundation/filewrapper
//   https://developer.apple.com/documentation/foundation/nsfilecoordinator/coordinate(with:queue:byaccessor:)
//   https://developer.apple.com/documentation/foundation/url/appendingpathcomponent(_:conformingto:)
//   https://developer.apple.com/documentation/foundation/urlresourcevalues/contenttype
//   https://developer.apple.com/documentation/foundation/progressmanager/assign(count:to:)-98a77

extension UTType {
  static let sketchbook = UTType(exportedAs: "com.example.sketchbook")
}

struct SketchbookInfo: Codable, Equatable, Sendable {
  var title: String
  var strokeOrder: [String]
}

struct Sketchbook: FileDocument {
  static var readableContentTypes: [UTType] { [.sketchbook] }

  var info = SketchbookInfo(title: "Untitled", strokeOrder: [])
  var strokes: [String: Data] = [:]
  var thumbnail = Data()

  init() {}

  init(configuration: ReadConfiguration) throws {
    guard let children = configuration.file.fileWrappers,
      let infoData = children["Info.json"]?.regularFileContents
    else {
      throw CocoaError(.fileReadCorruptFile)
    }
    info = try JSONDecoder().decode(SketchbookInfo.self, from: infoData)
    for (name, wrapper) in children["strokes"]?.fileWrappers ?? [:] {
      strokes[name] = wrapper.regularFileContents
    }
    thumbnail =
      children["thumbnails"]?.fileWrappers?["thumbnail.png"]?.regularFileContents ?? Data()
  }

  func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper {
    let root = FileWrapper(directoryWithFileWrappers: [:])
    root.addRegularFile(
      withContents: try JSONEncoder().encode(info), preferredFilename: "Info.json")
    let strokeFolder = FileWrapper(directoryWithFileWrappers: [:])
    strokeFolder.preferredFilename = "strokes"
    for (name, data) in strokes {
      strokeFolder.addRegularFile(withContents: data, preferredFilename: name)
    }
    root.addFileWrapper(strokeFolder)
    let thumbnails = FileWrapper(directoryWithFileWrappers: [
      "thumbnail.png": FileWrapper(regularFileWithContents: thumbnail)
    ])
    thumbnails.preferredFilename = "thumbnails"
    root.addFileWrapper(thumbnails)
    return root
  }
}

/// The app's Info.plist, declaring its package type as an app's bundle does.
private let sketchbookDeclared: Bool = {
  let plist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
      <key>UTExportedTypeDeclarations</key>
      <array>
        <dict>
          <key>UTTypeIdentifier</key><string>com.example.sketchbook</string>
          <key>UTTypeDescription</key><string>Sketchbook</string>
          <key>UTTypeConformsTo</key><array><string>com.apple.package</string></array>
          <key>UTTypeTagSpecification</key>
          <dict><key>public.filename-extension</key><array><string>sketchbook</string></array></dict>
        </dict>
      </array>
    </dict>
    </plist>
    """
  guard let folder = try? makeTemporaryDirectory("sketchbook-plist") else { return false }
  defer { removeTree(folder) }
  let url = folder.appendingPathComponent("Info.plist")
  guard (try? Data(plist.utf8).write(to: url)) != nil else { return false }
  return (try? UTType.registerDeclarations(contentsOf: url)) != nil
}()

@MainActor
private func inTemporaryFolder(_ name: String, _ body: @MainActor (URL) async throws -> Void)
  async throws
{
  let url = try makeTemporaryDirectory(name)
  defer { removeTree(url) }
  try await body(url)
}

@Suite struct SketchbookProgramTests {
  @Test @MainActor func theSketchbookAppsModelLayerRunsAsOnApplesPlatforms() async throws {
    #expect(sketchbookDeclared)
    try await inTemporaryFolder("sketchbook") { folder in
      // Naming a new document from its type.
      let url = folder.appendingPathComponent("Trip", conformingTo: .sketchbook)
      #expect(url.lastPathComponent == "Trip.sketchbook")

      // A new document, saved for the first time, its progress part of the app's.
      var book = Sketchbook()
      book.info = SketchbookInfo(title: "Trip", strokeOrder: ["0001.json", "0002.json"])
      book.strokes = ["0001.json": Data("[1,2]".utf8), "0002.json": Data("[3,4]".utf8)]
      book.thumbnail = Data([0x89, 0x50, 0x4E, 0x47])
      let session = DocumentSession(newDocument: book)
      let overall = ProgressManager(totalCount: 2)
      try await session.save(
        to: url, contentType: .sketchbook, progress: overall.subprogress(assigningCount: 1))
      #expect(overall.fractionCompleted == 0.5)

      // The system tells its type.
      let values = try url.resourceValues(forKeys: [.contentTypeKey, .isDirectoryKey])
      #expect(values.contentType == .sketchbook)
      #expect(values.isDirectory == true)

      // Opened again, edited, saved in place.
      let reopened = try await DocumentSession(contentsOf: url, documentType: Sketchbook.self)
      #expect(reopened.document.document.info == book.info)
      #expect(reopened.document.document.strokes == book.strokes)
      reopened.document.document.strokes["0003.json"] = Data("[5]".utf8)
      reopened.document.document.info.strokeOrder.append("0003.json")
      try await reopened.save()

      // A file wrapper of it: renaming a child re-keys it; a serialized copy reads back.
      let wrapper = try FileWrapper(url: url, options: .immediate)
      let strokes = try #require(wrapper.fileWrappers?["strokes"])
      let third = try #require(strokes.fileWrappers?["0003.json"])
      third.preferredFilename = "0003-renamed.json"
      #expect(strokes.fileWrappers?["0003-renamed.json"] === third)
      #expect(strokes.fileWrappers?["0003.json"] == nil)
      let data = try #require(wrapper.serializedRepresentation)
      let copy = try #require(FileWrapper(serializedRepresentation: data))
      #expect(
        copy.fileWrappers?["strokes"]?.fileWrappers?["0003-renamed.json"]?.regularFileContents
          == Data("[5]".utf8))

      // Uploading: a zip of the package, with its own progress assigned to the app's.
      let upload = ProgressManager(totalCount: 1)
      overall.assign(count: 1, to: upload.reporter)
      let outbox = folder.appendingPathComponent("Outbox")
        .appendingPathComponent("Trip").appendingPathExtension(for: .zip)
      try FileManager.default.createDirectory(
        at: outbox.deletingLastPathComponent(), withIntermediateDirectories: true)
      let intent = NSFileAccessIntent.readingIntent(with: url, options: .forUploading)
      let failure: (any Error)? = await withCheckedContinuation { continuation in
        NSFileCoordinator().coordinate(with: [intent], queue: OperationQueue()) { error in
          if error == nil {
            do {
              try FileManager.default.copyItem(at: intent.url, to: outbox)
              upload.complete(count: 1)
            } catch {
              continuation.resume(returning: error)
              return
            }
          }
          continuation.resume(returning: error)
        }
      }
      #expect(failure == nil)
      #expect(outbox.lastPathComponent == "Trip.zip")
      #expect(overall.isFinished)
      let uploaded = try FileWrapper(archiveAt: outbox)
      #expect(uploaded.fileWrappers?["strokes"]?.fileWrappers?.count == 3)
      #expect(uploaded.fileWrappers?["Info.json"] != nil)
    }
  }
}
