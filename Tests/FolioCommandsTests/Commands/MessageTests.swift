import Folio
import FolioSystem
import FolioTestSupport
import Foundation
import Testing

@testable import FolioCommands

/// Messages a person can act on (issue 12 §1), each checked on its exact line: the stable
/// code ends every failure (issue 10's messages).
///
/// Every message names the path once, says what was wrong in plain words, and names
/// the option or command that would help.
@Suite struct MessageTests {
  /// Standard error's first line.
  private func firstErrorLine(_ words: [String], in folder: URL) async -> (Int32, String) {
    let (status, _, errors) = await runFolio(words, in: folder)
    return (
      status, String(errors.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    )
  }

  @Test func missingPackageIsNamedOnceWithTheSystemsWords() async throws {
    try await withTemporaryDirectory("msg-pack") { folder in
      let (status, line) = await firstErrorLine(["pack", "/nonexistent"], in: folder)
      #expect(status == 1)
      #expect(line == "error: cannot open '/nonexistent': No such file or directory [file-system]")
    }
  }

  @Test func missingDeclarationsFileIsNamedOnce() async throws {
    try await withTemporaryDirectory("msg-declarations") { folder in
      try Data("x".utf8).write(to: folder.appendingPathComponent("a.txt"))
      let (status, line) = await firstErrorLine(
        ["export", "a.txt", "--to", "html", "--declarations", "/nonexistent.plist"], in: folder)
      #expect(status == 1)
      #expect(
        line
          == "error: cannot read declarations from /nonexistent.plist: No such file or directory [unreadable-declarations]"
      )
    }
  }

  @Test func aFileThatIsNoArchiveIsSaidSoWithTheFormatsFolioReads() async throws {
    try await withTemporaryDirectory("msg-not-archive") { folder in
      try Data("# Read me\n".utf8).write(to: folder.appendingPathComponent("README.md"))
      let (status, line) = await firstErrorLine(["expand", "README.md"], in: folder)
      #expect(status == 1)
      #expect(
        line
          == "error: '\(folder.path)/README.md' is not an archive Folio can read (it reads zip, tar (plain or compressed with gzip, bzip2, xz, zstd or lz4), cpio, RPM, 7-Zip, ISO 9660, xar, ar, RAR and LHA) [not-an-archive]"
      )
      let (listed, listLine) = await firstErrorLine(["list", "README.md"], in: folder)
      #expect(listed == 1)
      #expect(
        listLine.hasPrefix("error: '\(folder.path)/README.md' is not an archive Folio can read"))
    }
  }

  @Test func aNameThatIsNotUTF8IsShownEscaped() async throws {
    try await withTemporaryDirectory("msg-utf8") { folder in
      let package = folder.appendingPathComponent("U.examplenotebook")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      // A file named with a Latin-1 byte, made through the C API (Foundation names are UTF-8).
      let path = package.path + "/caf\u{E9}"
      var bytes = Array(package.path.utf8) + Array("/caf".utf8) + [0xE9, 0]
      let descriptor = bytes.withUnsafeMutableBufferPointer {
        $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
      }
      #expect(descriptor >= 0, "cannot create \(path)")
      close(descriptor)
      let (status, line) = await firstErrorLine(["pack", "U.examplenotebook"], in: folder)
      #expect(status == 1)
      #expect(
        line
          == "error: the name 'caf\\xE9' in '\(package.path)' is not valid UTF-8; archives store UTF-8 names [invalid-entry]"
      )
    }
  }

  @Test func misspeltWordsGetTheClosestValidOnes() async throws {
    try await withTemporaryDirectory("msg-did-you-mean") { folder in
      #expect(
        await firstErrorLine(["pakc"], in: folder)
          == (64, "error: unknown subcommand 'pakc'; did you mean 'pack'?"))
      #expect(
        await firstErrorLine(["pack", "--levle", "3", "P"], in: folder)
          == (64, "error: unknown option '--levle'; did you mean '--level'?"))
      #expect(
        await firstErrorLine(["types", "identfy", "x"], in: folder)
          == (64, "error: unknown subcommand 'identfy'; did you mean 'identify'?"))
      try Data("x".utf8).write(to: folder.appendingPathComponent("a.plist"))
      #expect(
        await firstErrorLine(["export", "a.plist", "--to", "binary"], in: folder)
          == (
            64,
            "error: unknown type 'binary' for '--to': not an identifier, extension or MIME type the registry knows; did you mean 'com.apple.binary-property-list', 'com.apple.mach-o-binary' or 'com.apple.pef-binary'?"
          ))
      #expect(
        await firstErrorLine(["pack", "P", "--format", "tar.gzz"], in: folder)
          == (
            64,
            "error: invalid value 'tar.gzz' for '--format': expected one of zip, tar, tar.gz, tar.bz2, tar.xz, tar.zst; did you mean 'tar.gz'?"
          ))
    }
  }

  @Test func aStrayPositionalSaysHowToNameTheOutput() async throws {
    try await withTemporaryDirectory("msg-stray") { folder in
      #expect(
        await firstErrorLine(["pack", "DIR", "out.zip"], in: folder)
          == (64, "error: unexpected argument 'out.zip'; to name the output, use '-o out.zip'"))
    }
  }

  @Test func exportWithoutARouteSaysWhyAndWhatHelps() async throws {
    try await withTemporaryDirectory("msg-route") { folder in
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("Notes.examplenotebook"),
        withIntermediateDirectories: true)
      let (status, line) = await firstErrorLine(
        ["export", "Notes.examplenotebook", "--to", "txt"], in: folder)
      #expect(status == 1)
      #expect(
        line
          == "error: no exporter leads from public.folder ('Notes.examplenotebook') to public.plain-text: 'Notes.examplenotebook' was typed by its name as public.folder, because no declaration gives '.examplenotebook' folders a type; pass its app's Info.plist with --declarations FILE, or put that file in a types folder ($XDG_DATA_HOME/folio/types or FOLIO_TYPES_PATH) [no-route]"
      )
    }
  }

  @Test func existingOutputsNameTheOptionThatReplacesThem() async throws {
    try await withTemporaryDirectory("msg-exists") { folder in
      let note = folder.appendingPathComponent("N")
      try FileManager.default.createDirectory(at: note, withIntermediateDirectories: true)
      try Data("a".utf8).write(to: note.appendingPathComponent("a.txt"))
      #expect(await runFolio(["pack", "N", "-o", "N.zip", "-q"], in: folder).0 == 0)
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("Out"), withIntermediateDirectories: true)
      let (status, line) = await firstErrorLine(["expand", "N.zip", "-o", "Out"], in: folder)
      #expect(status == 1)
      #expect(
        line
          == "error: '\(folder.path)/Out' already exists; use --force to replace it, or --update to update it [output-exists]"
          || line
            == "error: '\(folder.path)/Out' already exists (replace it with --force, or update it with --update) [output-exists]"
      )
    }
  }

  @Test func countsAgreeInNumber() async throws {
    try await withTemporaryDirectory("msg-counts") { folder in
      let one = folder.appendingPathComponent("One")
      try FileManager.default.createDirectory(at: one, withIntermediateDirectories: true)
      try Data("a".utf8).write(to: one.appendingPathComponent("a.txt"))
      let (_, packed, _) = await runFolio(["pack", "One"], in: folder)
      #expect(packed.hasPrefix("packed 1 file (1 B) into "))
      try Data("b".utf8).write(to: one.appendingPathComponent("b.txt"))
      let (_, again, _) = await runFolio(["pack", "One", "-o", "Two.zip"], in: folder)
      #expect(again.hasPrefix("packed 2 files (2 B) into "))
      let (_, expanded, _) = await runFolio(["expand", "One.zip", "-o", "Back"], in: folder)
      #expect(expanded.hasPrefix("expanded 1 file (1 B) into "))
    }
  }

  @Test func helpListsEveryExitCode() async throws {
    try await withTemporaryDirectory("msg-help") { folder in
      let (status, output, _) = await runFolio(["--help"], in: folder)
      #expect(status == 0)
      #expect(
        output.contains(
          "Exit codes: 0 success, 1 the work failed or found errors, 64 usage error,\n130 interrupted (Ctrl-C)."
        ))
    }
  }

  /// Runs the error paths of every command and checks that no Foundation or libarchive
  /// internals reach the user.
  @Test func noErrorPathShowsFoundationOrLibarchiveInternals() async throws {
    try await withTemporaryDirectory("msg-sweep") { folder in
      try Data("# text\n".utf8).write(to: folder.appendingPathComponent("README.md"))
      try Data(repeating: 0, count: 600).write(to: folder.appendingPathComponent("zeros.tar"))
      try Data("PK\u{3}\u{4}truncated".utf8).write(to: folder.appendingPathComponent("cut.zip"))
      try Data("<plist><dict><key>a</key>".utf8).write(
        to: folder.appendingPathComponent("bad.plist"))
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("locked"), withIntermediateDirectories: true)
      chmod(folder.appendingPathComponent("locked").path, 0)
      defer { chmod(folder.appendingPathComponent("locked").path, 0o755) }
      let lines: [[String]] = [
        ["pack", "/nonexistent"], ["pack", "README.md"], ["pack", "locked"],
        ["pack", "/nonexistent", "-o", "/nonexistent/dir/out.zip"],
        ["expand", "README.md"], ["expand", "zeros.tar"], ["expand", "cut.zip"],
        ["expand", "/nonexistent.zip"], ["expand", "README.md", "-o", "/nonexistent/out"],
        ["list", "README.md"], ["list", "cut.zip"], ["list", "/nonexistent.tar"],
        ["export", "/nonexistent", "--to", "txt"], ["export", "README.md", "--to", "zip"],
        ["export", "README.md", "--to", "txt", "--declarations", "/nonexistent.plist"],
        ["export", "README.md", "--to", "txt", "--declarations", "README.md"],
        ["export", "locked", "--to", "zip"],
        ["validate", "/nonexistent.plist"], ["validate", "bad.plist"],
        ["plist", "lint", "/nonexistent.plist"], ["plist", "lint", "bad.plist"],
        ["plist", "convert", "--to", "json", "bad.plist"],
        ["plist", "convert", "--to", "xml", "/nonexistent.plist"],
        ["types", "show", "x", "--declarations", "/nonexistent.plist"],
        ["types", "list", "--declarations", "bad.plist"],
        ["types", "identify", "/nonexistent"],
      ]
      for words in lines {
        let (_, output, errors) = await runFolio(words, in: folder)
        for forbidden in [
          "NSCocoaErrorDomain", "NSPOSIXErrorDomain", "Error Domain=", "ARCHIVE_FATAL",
          "ARCHIVE_FAILED", "ARCHIVE_WARN", "UserInfo=",
        ] {
          #expect(
            !errors.contains(forbidden) && !output.contains(forbidden),
            "folio \(words.joined(separator: " ")) shows \(forbidden): \(errors)")
        }
      }
    }
  }
}

@Suite struct ErrorReportTests {
  private struct Described: Error, CustomStringConvertible {
    var description: String { "No space left on device" }
  }

  @Test func causesReadAsPlainWords() {
    #expect(ErrorReport.plain(Described()) == "No space left on device")
    #expect(
      ErrorReport.plain(NSError(domain: NSPOSIXErrorDomain, code: Int(ENOENT)))
        == "No such file or directory")
    let cocoa = NSError(
      domain: NSCocoaErrorDomain, code: CocoaError.fileReadNoSuchFile.rawValue,
      userInfo: [
        NSFilePathErrorKey: "/x",
        NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES)),
      ])
    #expect(ErrorReport.plain(cocoa) == "Permission denied")
    let foreign = NSError(domain: "SomeDomain", code: 7, userInfo: ["k": "v"])
    #expect(!ErrorReport.plain(foreign).contains("Error Domain="))
  }
}

/// One error convention across the library (issue 13 §2): every module's error is a
/// `FolioError`, and no library message names a command-line option.
@Suite struct ErrorConventionTests {
  @Test func everyModulesErrorIsAFolioErrorWithTheSameShape() {
    let location = SourceLocation(file: "Info.plist", line: 3, column: 5)
    let cause = SystemError(errno: ENOSPC)
    let errors: [any FolioError] = [
      PropertyListError(.init("a"), "m", location: location, cause: cause),
      UniformTypeError(.init("b"), "m", location: location, cause: cause),
      PackagingError(.init("c"), "m", location: location, cause: cause),
      ExportError(.init("d"), "m", location: location, cause: cause),
    ]
    #expect(errors.map { $0.code.rawValue } == ["a", "b", "c", "d"])
    for error in errors {
      #expect(error.description == "Info.plist:3:5: m: No space left on device")
      #expect(ErrorReport(error).message == "Info.plist:3:5: m: No space left on device")
    }
  }

  @Test func theRootCauseIsTheDeepestUnderAChainOfFolioErrors() {
    let inner = PropertyListError(.init("inner"), "inner", cause: SystemError(errno: EACCES))
    let outer = ExportError(.init("outer"), "cannot read 'x'", cause: inner)
    #expect((outer.rootCause as? SystemError)?.errno == EACCES)
    #expect(ErrorReport(outer).message == "cannot read 'x': Permission denied")
    #expect(ExportError(.init("alone"), "m").rootCause is ExportError)
  }

  @Test func libraryTextNeverNamesACommandLineOption() throws {
    // A string literal holding ` --word` or ` -o` (or starting with one), outside comments.
    let option = try Regex(#""[^"]*(^|[ (])--?[a-zA-Z][^"]*""#)
    var offenders: [String] = []
    for module in ["FolioSystem", "PropertyLists", "UniformTypes", "Packaging", "Exporting"] {
      let folder = ProjectPaths.root.appendingPathComponent("Sources/\(module)")
      let files =
        FileManager.default.enumerator(atPath: folder.path)?
        .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
      for file in files {
        let text = try String(
          contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
          .enumerated()
        {
          let code = line.split(separator: "//", maxSplits: 1).first.map(String.init) ?? ""
          if code.contains(option) { offenders.append("\(module)/\(file):\(number + 1)") }
        }
      }
    }
    #expect(offenders.isEmpty, "library text names options: \(offenders)")
  }

  @Test func theCommandAddsTheOptionAsAHint() {
    let exists = ExportError(.outputExists, "'a.html' already exists")
    #expect(
      ErrorReport(exists, command: ["folio", "export"]).line
        == "'a.html' already exists; use --force to replace it")
    #expect(ErrorReport(exists).hint == nil)
  }
}
