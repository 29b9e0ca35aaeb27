import Foundation

/// Places in the checkout that tests read: samples, schemas, the shared corpus.
public enum ProjectPaths {
  /// The package root (the folder holding `Package.swift`).
  public static let root: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        return url
      }
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
  }()

  /// `Samples/`.
  public static var samples: URL { root.appendingPathComponent("Samples") }

  /// `Samples/Notebook.examplenotebook`.
  public static var sampleNotebook: URL {
    samples.appendingPathComponent("Notebook.examplenotebook")
  }

  /// `Samples/NotebookApp/Info.plist`.
  public static var sampleInfoPlist: URL {
    samples.appendingPathComponent("NotebookApp/Info.plist")
  }

  /// `Schemas/`.
  public static var schemas: URL { root.appendingPathComponent("Schemas") }

  /// `../shared` beside the checkout (`FOLIO_SHARED` overrides).
  public static var shared: URL {
    if let path = ProcessInfo.processInfo.environment["FOLIO_SHARED"] {
      return URL(fileURLWithPath: path)
    }
    return root.deletingLastPathComponent().appendingPathComponent("shared")
  }

  /// `../shared/corpus/plists`.
  public static var plistCorpus: URL { shared.appendingPathComponent("corpus/plists") }

  /// Every `*.plist` file of the shared corpus, sorted by name.
  public static func plistCorpusFiles() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(
      at: plistCorpus, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == "plist" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }
}
