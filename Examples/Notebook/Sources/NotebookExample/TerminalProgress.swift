import Folio

/// Shows how far an operation has come on standard error: a bar redrawn in place on a
/// terminal, one line per step otherwise.
@MainActor
final class TerminalProgress {
  private let title: String
  private let reporter: ProgressReporter
  private var watcher: Task<Void, Never>?
  private let isTerminal = isatty(STDERR_FILENO) == 1

  /// Starts showing `reporter`'s progress under `title`.
  init(_ title: String, reporter: ProgressReporter) {
    self.title = title
    self.reporter = reporter
    let draw = { [isTerminal] (line: String) in
      FileHandle.standardError.write(Data(((isTerminal ? "\r\u{1B}[K" : "") + line).utf8))
    }
    watcher = Task { @MainActor [reporter] in
      var last = -1
      while !Task.isCancelled {
        let percent = Int(reporter.fractionCompleted * 100)
        if percent != last && (isTerminal || percent % 25 == 0) {
          last = percent
          draw(Self.line(title, percent) + (isTerminal ? "" : "\n"))
        }
        try? await Task.sleep(for: .milliseconds(40))
      }
    }
  }

  /// Stops watching and prints the final line.
  func finish(_ summary: String) {
    watcher?.cancel()
    let line = Self.line(title, Int(reporter.fractionCompleted * 100)) + "  " + summary + "\n"
    FileHandle.standardError.write(Data(((isTerminal ? "\r\u{1B}[K" : "") + line).utf8))
  }

  private static func line(_ title: String, _ percent: Int) -> String {
    let filled = percent * 24 / 100
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 24 - filled)
    return title.padding(toLength: 10, withPad: " ", startingAt: 0) + " [\(bar)] \(percent)%"
  }
}
