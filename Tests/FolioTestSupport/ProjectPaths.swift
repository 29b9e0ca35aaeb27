public import Foundation

/// Places in the checkout that tests read: samples, schemas, the real-plist corpus.
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

  /// A copy of `Samples/Notebook.examplenotebook` in this test process's own temporary
  /// folder, made on first use and removed when the process exits.
  ///
  /// Commands run on a package lock it beside itself (`.Notebook.examplenotebook.folio-lock`):
  /// on the checkout's sample that left a lock file in `Samples/`, and tests of other
  /// checkouts' runs could wait on each other's locks. The copy keeps tests in their own
  /// folders.
  public static let sampleNotebook: URL = {
    let original = samples.appendingPathComponent("Notebook.examplenotebook")
    do {
      let folder = try makeTemporaryDirectory("sample")
      let copy = folder.appendingPathComponent("Notebook.examplenotebook")
      try FileManager.default.copyItem(at: original, to: copy)
      atexit { removeTree(ProjectPaths.sampleNotebook.deletingLastPathComponent()) }
      return copy
    } catch {
      fatalError("cannot copy \(original.path) for the tests: \(error)")
    }
  }()

  /// `Samples/NotebookApp/Info.plist`.
  public static var sampleInfoPlist: URL {
    samples.appendingPathComponent("NotebookApp/Info.plist")
  }

  /// `Schemas/`.
  public static var schemas: URL { root.appendingPathComponent("Schemas") }

  /// `Tests/Fixtures/InfoPlists`: real Info.plists from public projects, with their origin and
  /// licence in `SOURCES.tsv` beside them.
  public static var plistCorpus: URL { root.appendingPathComponent("Tests/Fixtures/InfoPlists") }

  /// `scripts/bench/make_corpus.py`, the deterministic benchmark corpus generator.
  public static var corpusGenerator: URL {
    root.appendingPathComponent("scripts/bench/make_corpus.py")
  }

  /// The system-types research table compiled into the registry.
  public static var systemTypesTable: URL {
    root.appendingPathComponent("Sources/UniformTypes/Registry/system-types.tsv")
  }

  /// Every `*.plist` file of the real-plist corpus, sorted by name.
  public static func plistCorpusFiles() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(
      at: plistCorpus, includingPropertiesForKeys: nil
    )
    .filter { $0.pathExtension == "plist" }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }
}

/// Copies the sample notebook into a test folder, so a test may change it.
public func copySampleNotebook(into folder: URL, name: String = "Notebook.examplenotebook") throws
  -> URL
{
  let copy = folder.appendingPathComponent(name)
  try FileManager.default.copyItem(at: ProjectPaths.sampleNotebook, to: copy)
  return copy
}
