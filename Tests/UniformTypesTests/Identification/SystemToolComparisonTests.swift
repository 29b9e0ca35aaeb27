import FolioTestSupport
import Foundation
import Testing
import UniformTypes

/// Identifies real files and compares the answers with the machine's own tools:
/// `gio info` (GLib applying the shared MIME database, the same rules Folio reads) and
/// `file --mime-type` (libmagic, content only, a different database).
///
/// The files are what the system and the toolchain install (documentation, headers,
/// libraries, binaries, scripts, Python modules; images and fonts where the machine has
/// them) and files made here with the tools `scripts/bootstrap.sh` installs (zip, bsdtar,
/// gzip, bzip2, xz, zstd, Python): images, archives, documents, databases, sound, scripts,
/// files without a name that helps, an empty file. The figures and every disagreement,
/// with its reason, are printed; agreement with GLib on the files the database describes
/// must be near total.
@Suite(.serialized) struct SystemToolComparisonTests {
  /// One file's answers.
  struct Row {
    var path: String
    var folio: TypeIdentification
    var folioByContent: TypeIdentification
    var gio: String?
    var file: String?
  }

  static let mimeRoot = URL(fileURLWithPath: "/usr/share/mime")

  @Test(
    .enabled(
      if: SharedMIMEInfo.isInstalled, "shared-mime-info is not installed (bootstrap.sh installs it)"
    ))
  func folioAgreesWithSharedMIMEInfoAndExplainsWhereFileDiffers() async throws {
    let database = MIMEDatabase.load(mimeDirectories: [Self.mimeRoot], languages: [])
    var builder = TypeRegistryBuilder()
    builder.add(database)
    let registry = builder.build()
    try await withTemporaryDirectory("comparison") { folder in
      let made = try Self.makeFiles(in: folder)
      let found = Self.systemFiles()
      let paths = made + found
      #expect(paths.count >= 80, "only \(paths.count) files to compare")

      let hasGio = programExists("gio")
      let hasFile = programExists("file")
      if !hasGio {
        print(
          "comparison: gio (libglib2.0-bin) not found; the shared-mime-info comparison is skipped")
      }
      if !hasFile { print("comparison: file not found; the libmagic comparison is skipped") }
      let gio = hasGio ? try Self.gioTypes(paths) : [:]
      let file = hasFile ? try Self.fileTypes(paths) : [:]
      var rows: [Row] = []
      for path in paths {
        let folio = try registry.identification(
          ofItemAtPath: path, content: .whenNameIsInconclusive)
        let byContent = try registry.identification(ofItemAtPath: path, content: .always)
        rows.append(
          Row(path: path, folio: folio, folioByContent: byContent, gio: gio[path], file: file[path])
        )
      }

      // Shared-mime-info, as GLib applies it: name first, content when the name is not enough.
      if hasGio {
        let described = rows.filter { $0.gio != nil && $0.gio != "application/octet-stream" }
        var exact = 0
        var finer: [String] = []
        var disagreements: [String] = []
        for row in described {
          guard let answer = row.gio else { continue }
          if Self.agrees(row.folio, answer, registry: registry) {
            exact += 1
          } else if let theirs = registry.identifier(forMIMEType: answer),
            registry.conforms(row.folio.identifier, to: theirs)
          {
            // Apple's table knows more than the desktop's (a .plist is an XML property
            // list, a .swift file Swift source); the answer is a subtype of GLib's.
            finer.append(Self.explain(row, answer: answer, tool: "gio", registry: registry))
          } else {
            disagreements.append(Self.explain(row, answer: answer, tool: "gio", registry: registry))
          }
        }
        let compatible = exact + finer.count
        print(
          "comparison: folio agrees with gio (shared-mime-info) on \(exact) of \(described.count) files it describes (\(Self.percent(exact, described.count))); with \(finer.count) more where folio's type is a subtype of gio's, \(compatible) (\(Self.percent(compatible, described.count)))"
        )
        for line in finer { print("  more specific than gio: \(line)") }
        for line in disagreements { print("  differs from gio: \(line)") }
        #expect(described.count >= 60)
        #expect(Double(compatible) >= 0.98 * Double(described.count), "\(disagreements)")
        #expect(Double(exact) >= 0.95 * Double(described.count))
      }

      // libmagic: content only, with its own names; compared with Folio reading the content.
      if hasFile {
        var exact = 0
        var coarser = 0
        var disagreements: [String] = []
        for row in rows {
          guard let answer = row.file else { continue }
          if Self.agrees(row.folioByContent, answer, registry: registry) {
            exact += 1
          } else if let theirs = registry.identifier(
            forMIMEType: Self.libmagicNames[answer] ?? answer),
            registry.conforms(row.folioByContent.identifier, to: theirs)
          {
            coarser += 1  // file names a broader type (text/plain for a Python script)
          } else {
            disagreements.append(
              Self.explain(row, answer: answer, tool: "file", registry: registry))
          }
        }
        print(
          "comparison: folio --content agrees with file --mime-type (libmagic's names mapped to shared-mime-info's) on \(exact) of \(rows.count) files (\(Self.percent(exact, rows.count))), and is more specific than file on \(coarser) more (\(Self.percent(exact + coarser, rows.count)) compatible)"
        )
        for line in disagreements { print("  differs from file: \(line)") }
        #expect(Double(exact + coarser) >= 0.6 * Double(rows.count))
      }
    }
  }

  // MARK: Comparing

  /// Whether a tool's MIME type names Folio's type.
  ///
  /// It does when it is one of the type's MIME types, or the registry gives it that type.
  /// libmagic's names for types shared-mime-info names otherwise (from `file`'s magic files
  /// and the database), so a different spelling is not counted as a disagreement.
  static let libmagicNames: [String: String] = [
    "text/x-shellscript": "application/x-shellscript",
    "application/x-pie-executable": "application/x-executable",
    "text/x-script.python": "text/x-python",
    "application/x-bytecode.python": "application/x-python-bytecode",
    "font/sfnt": "font/ttf",
    "text/x-c": "text/x-csrc",
    "text/x-c++": "text/x-c++src",
    "inode/x-empty": "text/plain",
    "text/x-perl": "application/x-perl",
    "text/x-ruby": "application/x-ruby",
    "text/x-php": "application/x-php",
    "application/x-sqlite3": "application/vnd.sqlite3",
    "audio/x-wav": "audio/x-wav",
    "application/x-wine-extension-ini": "text/plain",
  ]

  static func agrees(_ folio: TypeIdentification, _ mimeType: String, registry: TypeRegistry)
    -> Bool
  {
    let wanted = (libmagicNames[mimeType.lowercased()] ?? mimeType).lowercased()
    if folio.mimeTypes.contains(where: {
      $0.lowercased().split(separator: ";").first.map(String.init) == wanted
    }) {
      return true
    }
    return registry.identifier(forMIMEType: mimeType) == folio.identifier
  }

  /// One line: the file, both answers, and why they differ.
  static func explain(_ row: Row, answer: String, tool: String, registry: TypeRegistry) -> String {
    let folio = tool == "gio" ? row.folio : row.folioByContent
    let theirs = registry.identifier(forMIMEType: libmagicNames[answer] ?? answer)
    let decided = folio.candidates.first { $0.identifier == folio.identifier }
    var reason: String
    let generic = [
      "text/plain", "application/octet-stream", "application/zip", "text/xml", "application/xml",
    ]
    if tool == "file", generic.contains(answer), folio.evidence != .content {
      reason =
        "file reads the content only and sees \(answer); folio goes by the name (\(decided?.rule ?? "name")), which the content does not contradict"
    } else if let theirs, folio.candidates.contains(where: { $0.identifier == theirs }) {
      let their = folio.candidates.first { $0.identifier == theirs }!
      reason =
        "both rules matched; folio chose \(decided.map { "\($0.evidence.rawValue) (\($0.rule), \($0.strength))" } ?? folio.evidence.rawValue) over \(their.evidence.rawValue) (\(their.rule), \(their.strength))"
      if tool == "gio", their.evidence == .content, folio.evidence == .name {
        reason +=
          "; GLib lets a sniffed type of priority 80 or more break a tie between globs, folio needs it to reach the glob's weight"
      }
    } else if let theirs, registry.conforms(folio.identifier, to: theirs) {
      reason = "\(tool) names a broader type (\(theirs)); folio's is a subtype of it"
    } else if let theirs, registry.conforms(theirs, to: folio.identifier) {
      reason = "\(tool) names a subtype (\(theirs)) that folio's rules did not reach"
    } else if theirs == nil {
      reason = "\(tool)'s name \(answer) is not one shared-mime-info uses"
    } else {
      reason =
        "folio decided \(folio.evidence.rawValue)\(decided.map { " (\($0.rule))" } ?? ""); \(tool)'s type was not a candidate"
    }
    return
      "\(row.path): folio \(folio.identifier) [\(folio.mimeTypes.first ?? "-")], \(tool) \(answer): \(reason)"
  }

  static func percent(_ part: Int, _ whole: Int) -> String {
    whole == 0 ? "-" : String(format: "%.1f%%", 100 * Double(part) / Double(whole))
  }

  // MARK: The tools

  static func gioTypes(_ paths: [String]) throws -> [String: String] {
    var types: [String: String] = [:]
    for chunk in stride(from: 0, to: paths.count, by: 200).map({
      Array(paths[$0..<min($0 + 200, paths.count)])
    }) {
      let result = try runProcess("gio", ["info", "-a", "standard::content-type"] + chunk)
      var current: String?
      for line in result.outputText.split(separator: "\n") {
        if line.hasPrefix("local path: ") {
          current = String(line.dropFirst("local path: ".count))
        } else if let path = current, line.contains("standard::content-type: ") {
          types[path] = line.components(separatedBy: "standard::content-type: ").last
        }
      }
    }
    return types
  }

  static func fileTypes(_ paths: [String]) throws -> [String: String] {
    var types: [String: String] = [:]
    for chunk in stride(from: 0, to: paths.count, by: 200).map({
      Array(paths[$0..<min($0 + 200, paths.count)])
    }) {
      let result = try runProcess("file", ["--mime-type", "-N", "-F", "\u{1}"] + chunk)
      for line in result.outputText.split(separator: "\n") {
        let parts = line.components(separatedBy: "\u{1}")
        guard parts.count == 2 else { continue }
        types[parts[0]] = parts[1].trimmingCharacters(in: .whitespaces)
      }
    }
    return types
  }

  // MARK: The files

  /// Regular files the system and toolchain install, a few of each extension per place.
  static func systemFiles() -> [String] {
    var roots = [
      "/usr/share/doc", "/usr/share/common-licenses", "/usr/include", "/usr/bin", "/etc",
      "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/share/mime/packages",
      "/usr/share/zoneinfo", "/usr/share/fonts", "/usr/share/pixmaps", "/usr/share/icons",
      "/usr/share/perl5", "/usr/share/pkgconfig",
    ]
    if let python = try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")
      .filter({ $0.hasPrefix("python3") }).sorted().last
    {
      roots.append("/usr/lib/\(python)")
    }
    if let swift = try? runProcess("sh", ["-c", "command -v swiftc"]).outputText
      .trimmingCharacters(in: .whitespacesAndNewlines), !swift.isEmpty
    {
      let toolchain = URL(fileURLWithPath: swift).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent()
      roots.append(toolchain.appendingPathComponent("lib/swift").path)
      roots.append(toolchain.appendingPathComponent("share").path)
    }
    var paths: [String] = []
    for root in roots {
      var perExtension: [String: Int] = [:]
      var taken = 0
      guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
      var visited = 0
      while let relative = walker.nextObject() as? String, taken < 40, visited < 20_000 {
        visited += 1
        let path = root + "/" + relative
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o444 != 0,
          info.st_size > 0
        else { continue }
        let name = (relative as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension.lowercased()
        let key = ext.isEmpty ? "(none)" : ext
        guard perExtension[key, default: 0] < 3 else { continue }
        perExtension[key, default: 0] += 1
        taken += 1
        paths.append(path)
      }
    }
    return paths
  }

  /// Realistic files of common kinds, made with the tools the set-up installs.
  static func makeFiles(in folder: URL) throws -> [String] {
    let script = #"""
      import os, sys, struct, zlib, zipfile, sqlite3, wave, plistlib, gzip, bz2, lzma, tarfile, json
      d = sys.argv[1]
      def put(name, data):
          with open(os.path.join(d, name), "wb") as f: f.write(data)
      def png():
          raw = b"".join(b"\x00" + b"".join(bytes([x * 16, y * 16, 128]) for x in range(16)) for y in range(16))
          def chunk(kind, body): return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
          return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
      put("picture.png", png())
      put("picture-without-extension", png())
      put("picture-named-wrongly.txt", png())
      put("animation.gif", b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
      bmp_pixels = b"\x00\x00\xff\x00"
      put("bitmap.bmp", b"BM" + struct.pack("<IHHI", 58, 0, 0, 54) + struct.pack("<IiiHHIIiiII", 40, 1, 1, 1, 32, 0, 4, 2835, 2835, 0, 0) + bmp_pixels)
      put("drawing.svg", b'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>\n')
      put("drawing-without-extension", b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>\n')
      pdf = b"%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 100 100]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n"
      put("paper.pdf", pdf)
      put("paper", pdf)
      def office(name, mimetype, entries):
          with zipfile.ZipFile(os.path.join(d, name), "w") as z:
              if mimetype: z.writestr(zipfile.ZipInfo("mimetype"), mimetype)
              for entry, body in entries: z.writestr(entry, body, compress_type=zipfile.ZIP_DEFLATED)
      office("letter.odt", "application/vnd.oasis.opendocument.text", [("content.xml", "<office:document-content/>"), ("META-INF/manifest.xml", "<manifest/>")])
      office("sheet.ods", "application/vnd.oasis.opendocument.spreadsheet", [("content.xml", "<x/>")])
      office("report.docx", None, [("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'), ("word/document.xml", "<w:document/>")])
      office("book.epub", "application/epub+zip", [("META-INF/container.xml", "<container/>"), ("content.opf", "<package/>")])
      office("bundle.jar", None, [("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")])
      office("archive.zip", None, [("a.txt", "hello\n" * 100)])
      db = sqlite3.connect(os.path.join(d, "data.sqlite")); db.execute("create table t (a)"); db.commit(); db.close()
      w = wave.open(os.path.join(d, "sound.wav"), "wb"); w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000); w.writeframes(b"\x00\x00" * 800); w.close()
      with open(os.path.join(d, "Info.plist"), "wb") as f: plistlib.dump({"CFBundleIdentifier": "com.example.app", "Items": [1, 2]}, f)
      with open(os.path.join(d, "settings.plist"), "wb") as f: plistlib.dump({"a": 1}, f, fmt=plistlib.FMT_BINARY)
      put("page.html", b"<!DOCTYPE html>\n<html><head><title>t</title></head><body><p>Hello</p></body></html>\n")
      put("data.json", json.dumps({"name": "folio", "pages": [1, 2, 3]}).encode())
      put("feed.xml", b'<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>\n')
      put("notes.md", b"# Notes\n\nSome *text*.\n")
      put("table.csv", b"a,b,c\n1,2,3\n")
      put("style.css", b"body { color: red; }\n")
      put("script.sh", b"#!/bin/sh\necho hello\n")
      put("tool", b"#!/bin/sh\nexec echo tool\n")
      put("program.py", b"#!/usr/bin/env python3\nprint('hi')\n")
      put("program.c", b"#include <stdio.h>\nint main(void) { return 0; }\n")
      put("program.swift", b"print(\"hello\")\n")
      put("readme-without-extension", b"Plain words, nothing more.\n")
      put("empty", b"")
      text = b"hello world\n" * 500
      put("text.gz", gzip.compress(text)); put("text.bz2", bz2.compress(text)); put("text.xz", lzma.compress(text))
      for name, mode in [("archive.tar", "w"), ("archive.tar.gz", "w:gz"), ("archive.tar.bz2", "w:bz2"), ("archive.tar.xz", "w:xz")]:
          with tarfile.open(os.path.join(d, name), mode) as t: t.add(os.path.join(d, "notes.md"), arcname="notes.md")
      """#
    let scriptURL = folder.appendingPathComponent("make.py")
    try Data(script.utf8).write(to: scriptURL)
    let files = folder.appendingPathComponent("files")
    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    let made = try runProcess("python3", [scriptURL.path, files.path])
    #expect(made.status == 0, "\(made.errorText)")
    if programExists("zstd") {
      _ = try runProcess(
        "zstd",
        [
          "-q", "-k", files.appendingPathComponent("archive.tar").path, "-o",
          files.appendingPathComponent("archive.tar.zst").path,
        ])
    }
    return try FileManager.default.contentsOfDirectory(atPath: files.path).sorted().map {
      files.appendingPathComponent($0).path
    }
  }
}
