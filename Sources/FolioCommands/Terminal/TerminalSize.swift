import Dispatch
import Glibc

/// The size of the terminal a descriptor writes to, and a signal when it changes.
enum TerminalSize {
  /// The terminal's width in columns, read with `TIOCGWINSZ`.
  ///
  /// - Parameter descriptor: A descriptor open on the terminal (standard error).
  /// - Returns: The width, or `nil` when the descriptor is no terminal or reports no size.
  static func columns(of descriptor: Int32) -> Int? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// One element each time the process receives `SIGWINCH` (the terminal was
  /// resized), until the stream is dropped.
  ///
  /// - Returns: The stream; dropping it stops watching.
  static func resizes() -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Void.self, bufferingPolicy: .bufferingNewest(1))
    // SIGWINCH is ignored by default; the dispatch source still sees it.
    signal(SIGWINCH, SIG_IGN)
    let watch = SignalWatch(DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global()))
    watch.source.setEventHandler { continuation.yield() }
    continuation.onTermination = { _ in watch.source.cancel() }
    watch.source.resume()
    return stream
  }

  /// A dispatch source handed to the stream's termination handler; dispatch
  /// sources are safe to cancel from any thread, which their type does not declare.
  private final class SignalWatch: @unchecked Sendable {
    let source: any DispatchSourceSignal
    init(_ source: any DispatchSourceSignal) { self.source = source }
  }
}
