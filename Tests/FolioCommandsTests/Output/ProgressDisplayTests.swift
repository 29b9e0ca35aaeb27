import Foundation
import ProgressReporting
import Testing

@testable import FolioCommands

@Suite struct ProgressDisplayTests {
  @Test func liveLineShowsFilesBytesRateAndTimeLeft() {
    let display = ProgressDisplay(mode: .live, sink: .buffer(), verb: "Packing")
    let snapshot = ProgressSnapshot(
      fractionCompleted: 0.5, completedFileCount: 1204, totalFileCount: 2001,
      completedByteCount: 4_300_000,
      totalByteCount: 9_437_184, elapsed: .seconds(1), throughput: 12_897_485,
      estimatedTimeRemaining: .seconds(62))
    #expect(
      display.line(snapshot) == "Packing  1,204/2,001 files  4.1 MiB/9.0 MiB  12.3 MiB/s  1:02 left"
    )
  }

  @Test func unknownTotalsAreLeftOut() {
    let display = ProgressDisplay(mode: .live, sink: .buffer(), verb: "Expanding")
    let snapshot = ProgressSnapshot(
      fractionCompleted: 0, completedFileCount: 3, totalFileCount: nil, completedByteCount: 512,
      totalByteCount: nil, elapsed: .seconds(1), throughput: 512, estimatedTimeRemaining: nil)
    #expect(display.line(snapshot) == "Expanding  3 files  512 B  512 B/s")
  }

  @Test func modeFollowsTheOptionsAndTheTerminal() {
    #expect(
      ProgressDisplay.mode(progress: nil, quiet: false, sink: .buffer(isTerminal: true)) == .live)
    #expect(ProgressDisplay.mode(progress: nil, quiet: false, sink: .buffer()) == .none)
    #expect(
      ProgressDisplay.mode(progress: nil, quiet: true, sink: .buffer(isTerminal: true)) == .none)
    #expect(ProgressDisplay.mode(progress: .json, quiet: true, sink: .buffer()) == .json)
  }

  @Test func jsonEscapesControlCharactersInPaths() async throws {
    let sink = OutputSink.buffer()
    let display = ProgressDisplay(mode: .json, sink: sink)
    try await display.track { progress in
      let worker = progress.subprogress(assigningCount: 1).start(totalCount: 1)
      worker.totalFileCount += 1
      worker.totalByteCount += 1
      worker.startFile("a\"b\n\u{1}c", size: 1)
      worker.completedByteCount += 1
      worker.completeFile("a\"b\n\u{1}c")
    }
    let lines = sink.text.split(separator: "\n")
    #expect(lines.first == #"{"event":"file-started","path":"a\"b\n\u0001c","size":1}"#)
    for line in lines {
      #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(line.utf8)) }
    }
  }

  @Test func liveDisplayEndsWithTheFinalLineOnSuccessAndClearsOnFailure() async throws {
    let sink = OutputSink.buffer(isTerminal: true)
    let display = ProgressDisplay(mode: .live, sink: sink, verb: "Packing")
    _ = try await display.track { _ in 1 }
    #expect(sink.text.hasSuffix("\n"))
    #expect(sink.text.contains("Packing  0 files"))

    let failing = OutputSink.buffer(isTerminal: true)
    struct Boom: Error {}
    await #expect(throws: Boom.self) {
      try await ProgressDisplay(mode: .live, sink: failing).track { _ in throw Boom() }
    }
    #expect(!failing.text.contains("\n"))
  }
}

@Suite struct ProgressLineTests {
  let snapshot = ProgressSnapshot(
    fractionCompleted: 0.5, completedFileCount: 1204, totalFileCount: 2001,
    completedByteCount: 4_300_000,
    totalByteCount: 9_437_184, elapsed: .seconds(1), throughput: 12_897_485,
    estimatedTimeRemaining: .seconds(62),
    currentFile: "Notebook.examplenotebook/pages/0F6C2B1A-4D0E-4C57-9D31-2B7E6A1C9F00.txt")

  @Test func wideTerminalShowsEveryFieldAndTheWholePath() {
    let line = ProgressLine(verb: "Packing").render(snapshot, columns: 200)
    #expect(
      line
        == "Packing  1,204/2,001 files  4.1 MiB/9.0 MiB  12.3 MiB/s  1:02 left  Notebook.examplenotebook/pages/0F6C2B1A-4D0E-4C57-9D31-2B7E6A1C9F00.txt"
    )
  }

  @Test func eightyColumnsShortenThePathInTheMiddleAfterDroppingTheRate() {
    let line = ProgressLine(verb: "Packing").render(snapshot, columns: 80)
    #expect(
      line == "Packing  1,204/2,001 files  4.1 MiB/9.0 MiB  1:02 left  Noteboo…B7E6A1C9F00.txt")
    #expect(DisplayWidth.of(line) == 79)
    let wider = ProgressLine(verb: "Packing").render(snapshot, columns: 100)
    #expect(wider.hasPrefix("Packing  1,204/2,001 files  4.1 MiB/9.0 MiB  12.3 MiB/s  1:02 left  "))
    #expect(wider.contains("…") && DisplayWidth.of(wider) == 99)
  }

  @Test func fortyColumnsDropFieldsAndNeverReachTheEdge() {
    let line = ProgressLine(verb: "Packing").render(snapshot, columns: 40)
    #expect(line == "Packing  1,204/2,001 files")
    for columns in 1...120 {
      #expect(
        DisplayWidth.of(ProgressLine(verb: "Packing").render(snapshot, columns: columns))
          < max(columns, 2))
    }
  }

  @Test func wideNamesAreMeasuredByDisplayWidth() {
    var wide = snapshot
    wide.currentFile = "笔记本.examplenotebook/页面/第一页的内容和更多的内容.txt"
    for columns in [70, 80, 100] {
      let line = ProgressLine(verb: "Packing").render(wide, columns: columns)
      #expect(DisplayWidth.of(line) <= columns - 1)
      #expect(line.contains("…"))
    }
  }

  @Test func countsAgreeInNumber() {
    var one = snapshot
    one.completedFileCount = 1
    one.totalFileCount = nil
    #expect(
      ProgressLine(verb: "Expanding").render(one, columns: nil).hasPrefix("Expanding  1 file  "))
  }

  @Test func controlCharactersInPathsAreEscaped() {
    var odd = snapshot
    odd.currentFile = "a\nb\u{1B}[2J"
    let line = ProgressLine(verb: "Packing").render(odd, columns: nil)
    #expect(line.hasSuffix("a\\nb\\x1B[2J"))
  }
}
