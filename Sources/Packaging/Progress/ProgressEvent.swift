/// Something an observer of a ``ProgressReporter`` is told.
public enum ProgressEvent: Hashable, Sendable {
  /// Work on a file began.
  case fileStarted(path: String, size: Int64?)
  /// Work on a file ended; it counts as completed.
  case fileFinished(path: String)
  /// Bytes moved on; sent at most once per observer interval.
  case update(ProgressSnapshot)
  /// The operation ended (successfully, failed or cancelled); the stream ends after this.
  case finished(ProgressSnapshot)
}
