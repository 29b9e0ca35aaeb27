import FolioTestSupport
import Foundation
import Testing

@testable import FolioCommands

/// What a terminal of a given width shows after some output: enough of a VT100 to
/// check a progress line (`\r`, `\n`, `ESC [ K`, other CSI sequences ignored, wide
/// characters taking two cells, and automatic wrap at the right edge, counted).
struct TerminalScreen {
  let columns: Int
  private(set) var rows: [[Character]] = [[]]
  private(set) var row = 0
  private(set) var column = 0
  /// How many times text ran past the right edge and wrapped to a new row.
  private(set) var wraps = 0

  init(columns: Int) { self.columns = columns }

  mutating func feed(_ text: String) {
    var characters = text.makeIterator()
    while let character = characters.next() {
      switch character {
      case "\r": column = 0
      case "\n", "\r\n":
        if character == "\r\n" { column = 0 }
        newRow()
      case "\u{1B}":
        guard characters.next() == "[" else { continue }
        var parameters = ""
        while let next = characters.next() {
          if next.isLetter {
            if next == "K" && (parameters.isEmpty || parameters == "0") {
              if rows[row].count > column { rows[row].removeLast(rows[row].count - column) }
            }
            break
          }
          parameters.append(next)
        }
      default:
        let width = DisplayWidth.of(character)
        if column + width > columns {
          wraps += 1
          newRow()
          column = 0
        }
        while rows[row].count < column { rows[row].append(" ") }
        if rows[row].count > column {
          rows[row].replaceSubrange(
            column..<min(rows[row].count, column + width), with: [character])
        } else {
          rows[row].append(character)
        }
        if width == 2 { rows[row].append("\u{0}") }  // the second cell of a wide character
        column += width
      }
    }
  }

  private mutating func newRow() {
    row += 1
    if row == rows.count { rows.append([]) }
  }

  /// The rows as text, wide characters' second cells removed, trailing blanks kept off.
  var lines: [String] {
    rows.map { String($0.filter { $0 != "\u{0}" }) }
  }
}

/// `folio pack` on a real pseudo-terminal (made by util-linux `script`) at 40, 80 and 200
/// columns: the live line is redrawn in place, fits, and never wraps.
@Suite struct ProgressTerminalTests {
  /// A package whose long, partly CJK names do not fit a narrow terminal.
  private func makePackage(in folder: URL) throws -> URL {
    let package = folder.appendingPathComponent("笔记本-Notebook.examplenotebook")
    let pages = package.appendingPathComponent("pages")
    try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
    for index in 1...40 {
      let name = "第\(index)页-a-rather-long-page-name-that-no-narrow-terminal-can-hold.txt"
      try Data(repeating: UInt8(index), count: 30_000).write(to: pages.appendingPathComponent(name))
    }
    return package
  }

  /// Runs a shell command line on a pseudo-terminal of the given width; returns what the terminal received.
  private func onTerminal(columns: Int, _ command: String, in folder: URL) throws -> String {
    let result = try runProcess(
      "script", ["-qfec", "stty cols \(columns) rows 30; \(command)", "/dev/null"], in: folder)
    #expect(result.status == 0, "\(result.errorText)")
    return result.outputText
  }

  @Test(arguments: [40, 80, 200])
  func liveLineFitsTheTerminalAndIsRedrawnInPlace(columns: Int) throws {
    guard programExists("script") else {
      Issue.record("util-linux 'script' is needed to make a pseudo-terminal")
      return
    }
    let folder = try makeTemporaryDirectory("pty")
    defer { removeTree(folder) }
    let package = try makePackage(in: folder)
    let output = try onTerminal(
      columns: columns,
      "'\(FolioBinary.url.path)' pack '\(package.lastPathComponent)' -o out.zip > /dev/null",
      in: folder)

    // Every drawing of the line fits, one column short of the edge.
    let draws = output.components(separatedBy: "\r\u{1B}[K").dropFirst()
      .map { $0.trimmingCharacters(in: .newlines) }
    #expect(!draws.isEmpty)
    for draw in draws {
      #expect(DisplayWidth.of(draw) <= columns - 1, "too wide for \(columns) columns: \(draw)")
      #expect(draw.hasPrefix("Packing  "))
    }
    // The first drawing comes with the first file, naming it when there is room.
    if columns >= 80 {
      #expect(draws.first?.contains("笔记本-Notebook") == true || draws.first?.contains("…") == true)
    }
    if columns == 200 {
      #expect(
        draws.first?.contains("-a-rather-long-page-name-that-no-narrow-terminal-can-hold.txt")
          == true)
    }

    // What the terminal shows at the end: the final line alone, nothing stale, no wrap.
    var screen = TerminalScreen(columns: columns)
    screen.feed(output)
    #expect(screen.wraps == 0)
    let shown = screen.lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    #expect(shown.count == 1, "\(shown)")
    #expect(shown.first?.hasPrefix("Packing  40/40 files") == true, "\(shown)")
    #expect(shown.first == draws.last)
  }

  @Test func screenModelWrapsAndErasesAsATerminalDoes() {
    var screen = TerminalScreen(columns: 10)
    screen.feed("0123456789ab")
    #expect(screen.wraps == 1)
    #expect(screen.lines == ["0123456789", "ab"])
    var redraw = TerminalScreen(columns: 10)
    redraw.feed("long line\r\u{1B}[Kshort")
    #expect(redraw.lines == ["short"])
    var wide = TerminalScreen(columns: 5)
    wide.feed("ab笔记")
    #expect(wide.wraps == 1)
    #expect(wide.lines == ["ab笔", "记"])
  }
}
