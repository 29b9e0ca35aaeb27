#if !canImport(SwiftUI)
  import FoundationEssentials
  import Archives
  import Synchronization

  /// The file wrapper last read or written for one document, and where it lives.
  ///
  /// A ``DocumentSession`` gives its file-wrapper reader and writer one slot, so the
  /// writer's closure gets the previous wrapper (Apple's `previous` argument) and writes
  /// beside the document's current files, linking those that did not change. A session
  /// runs one read or write at a time, so the wrapper (not `Sendable`) is never used by
  /// two tasks at once.
  final class FileWrapperSlot: @unchecked Sendable {
    private struct State {
      var wrapper: FileWrapper?
      var location: URL?
    }
    private let state = Mutex<Void>(())
    private nonisolated(unsafe) var current = State()

    /// The wrapper and the location it was last read from or written to.
    var contents: (wrapper: FileWrapper?, location: URL?) {
      state.withLock { _ in (current.wrapper, current.location) }
    }

    /// Records the wrapper just read from or written to `location`.
    func store(_ wrapper: FileWrapper?, location: URL?) {
      state.withLock { _ in current = State(wrapper: wrapper, location: location) }
    }

    /// Records that the document's files moved (a save put the written tree in place).
    func move(to location: URL) {
      state.withLock { _ in current.location = location }
    }
  }
#endif
