// Opens a copy of Folio's sample notebook, edits one page, saves it (checking that only
// that page's file was rewritten), and exports it to text and to zip, with progress on
// the terminal.
//
// Usage: NotebookExample NOTEBOOK INFO_PLIST OUTPUT_FOLDER
import Folio

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("NotebookExample: \(message)\n".utf8))
  exit(1)
}

/// Each regular file of a package with its inode and modification time.
func fileStates(of package: URL) -> [String: String] {
  var states: [String: String] = [:]
  let walker = FileManager.default.enumerator(atPath: package.path)
  while let relative = walker?.nextObject() as? String {
    var info = stat()
    guard lstat(package.appendingPathComponent(relative).path, &info) == 0,
      info.st_mode & S_IFMT == S_IFREG
    else { continue }
    states[relative] =
      "inode \(info.st_ino), modified \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
  }
  return states
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else { fail("usage: NotebookExample NOTEBOOK INFO_PLIST OUTPUT_FOLDER") }
let sample = URL(fileURLWithPath: arguments[1])
let infoPlist = URL(fileURLWithPath: arguments[2])
let output = URL(fileURLWithPath: arguments[3])

do {
  // The app's Info.plist declares com.example.notebook, as on Apple's platforms.
  try UTType.registerDeclarations(contentsOf: infoPlist)
  let notebook = UTType(exportedAs: "com.example.notebook")
  print(
    "\(notebook.identifier): \(notebook.localizedDescription ?? "?"), .\(notebook.preferredFilenameExtension ?? "?")"
  )

  try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
  let package = output.appendingPathComponent(sample.lastPathComponent)
  if FileManager.default.fileExists(atPath: package.path) {
    try FileManager.default.removeItem(at: package)
  }
  try FileManager.default.copyItem(at: sample, to: package)

  // Open: the document's reader runs in the background, apply(snapshot:previous:) here.
  let session = try DocumentSession(contentsOf: package) { _ in NotebookDocument() }
  let opening = ProgressManager(totalCount: 1)
  let openDisplay = TerminalProgress("open", reporter: opening.reporter)
  try await session.open(progress: opening.subprogress(assigningCount: 1))
  let document = session.document
  openDisplay.finish("\"\(document.metadata.title)\", \(document.pages.count) pages")

  // Edit one page and save: only that page's file may change inode and modification time.
  let before = fileStates(of: package)
  let page = document.metadata.pageOrder[1]
  document.pages[page, default: ""] += "Added on Linux by the Notebook example.\n"
  let saving = ProgressManager(totalCount: 1)
  let saveDisplay = TerminalProgress("save", reporter: saving.reporter)
  try await session.save(progress: saving.subprogress(assigningCount: 1))
  let after = fileStates(of: package)
  let changed = after.keys.filter { after[$0] != before[$0] }.sorted()
  guard changed == ["pages/\(page.uuidString).txt"], Set(after.keys) == Set(before.keys) else {
    fail("saving rewrote \(changed) instead of the edited page alone")
  }
  saveDisplay.finish("rewrote \(changed[0]) alone; \(after.count - 1) files untouched")

  // Export a copy as plain text: the document writes its text form.
  let text = output.appendingPathComponent("Notebook.txt")
  let exporting = ProgressManager(totalCount: 1)
  let textDisplay = TerminalProgress("text", reporter: exporting.reporter)
  try await session.export(
    to: text, contentType: .utf8PlainText, replacing: true,
    progress: exporting.subprogress(assigningCount: 1))
  let written = try String(contentsOf: text, encoding: .utf8)
  guard written.contains("Added on Linux by the Notebook example.") else {
    fail("the text export lacks the edited page")
  }
  textDisplay.finish("\(text.lastPathComponent), \(written.utf8.count) bytes")

  // Pack the saved package into a zip, per file and per byte.
  let zip = output.appendingPathComponent("Notebook.zip")
  if FileManager.default.fileExists(atPath: zip.path) {
    try FileManager.default.removeItem(at: zip)
  }
  let packing = ProgressManager(totalCount: 1)
  let zipDisplay = TerminalProgress("zip", reporter: packing.reporter)
  let packed = try await Packer.pack(
    package, to: zip, options: PackOptions(), progress: packing.subprogress(assigningCount: 1))
  zipDisplay.finish("\(zip.lastPathComponent), \(packed.fileCount) files")

  // Read the zip back without expanding it: the edited page is in it.
  let archived = try FileWrapper(archiveAt: zip)
  let pageFile = archived.fileWrappers?["pages"]?.fileWrappers?["\(page.uuidString).txt"]
  guard let pageText = pageFile?.regularFileContents,
    String(decoding: pageText, as: UTF8.self) == document.pages[page]
  else { fail("the zip does not hold the edited page") }

  print(
    "saved \(package.lastPathComponent); exported \(text.lastPathComponent) and \(zip.lastPathComponent)"
  )
} catch {
  fail("\(error)")
}
