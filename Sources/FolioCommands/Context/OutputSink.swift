import FolioSystem
public import FoundationEssentials
import Glibc
import Synchronization

/// Where a command writes: a file descriptor, or a buffer a test reads back.
///
/// Writes are serialised, so concurrent workers (batch export, progress) can
/// share one sink without interleaving inside a line.
public final class OutputSink: Sendable {
  private enum Target {
    case descriptor(Int32)
    case buffer
  }

  private let target: Target
  private let captured = Mutex(Data())
  /// Whether the sink is a terminal (live progress lines, colour).
  public let isTerminal: Bool
  private let fixedColumns: Int?

  private init(target: Target, isTerminal: Bool, columns: Int? = nil) {
    self.target = target
    self.isTerminal = isTerminal
    self.fixedColumns = columns
  }

  /// The terminal's width in columns now (`TIOCGWINSZ`), or `nil` when the
  /// sink is no terminal or its width is unknown.
  public var columns: Int? {
    guard isTerminal else { return nil }
    if case .descriptor(let descriptor) = target {
      return TerminalSize.columns(of: descriptor)
    }
    return fixedColumns
  }

  /// Whether the sink writes to a real terminal, whose resizes raise `SIGWINCH`.
  var followsResizes: Bool {
    if case .descriptor = target { return isTerminal }
    return false
  }

  /// A sink writing to a file descriptor.
  ///
  /// - Parameter descriptor: An open descriptor, such as `STDOUT_FILENO`.
  /// - Returns: The sink; it does not close the descriptor.
  public static func descriptor(_ descriptor: Int32) -> OutputSink {
    OutputSink(target: .descriptor(descriptor), isTerminal: isatty(descriptor) == 1)
  }

  /// A sink that keeps what is written, for tests.
  ///
  /// - Parameters:
  ///   - isTerminal: Whether the sink should claim to be a terminal.
  ///   - columns: The width it claims, when it claims to be a terminal.
  /// - Returns: The sink; read it back with ``text``.
  public static func buffer(isTerminal: Bool = false, columns: Int? = nil) -> OutputSink {
    OutputSink(target: .buffer, isTerminal: isTerminal, columns: columns)
  }

  /// Writes text as UTF-8.
  ///
  /// - Parameter text: The text to write.
  public func write(_ text: String) {
    write(Data(text.utf8))
  }

  /// Writes bytes.
  ///
  /// - Parameter data: The bytes to write.
  public func write(_ data: Data) {
    captured.withLock { buffer in
      switch target {
      case .buffer:
        buffer.append(data)
      case .descriptor(let descriptor):
        // A failure is a closed pipe: nothing more can be said there.
        _ = data.withUnsafeBytes { SystemCall.writeAll(descriptor, $0) }
      }
    }
  }

  /// Everything written to a buffer sink, as bytes.
  public var data: Data { captured.withLock { $0 } }

  /// Everything written to a buffer sink, as UTF-8 text.
  public var text: String { String(decoding: data, as: UTF8.self) }
}
