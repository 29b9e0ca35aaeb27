/// Something an observer of a ``ProgressReporter`` is told (``ProgressReporter/events(interval:)``).
public enum ProgressEvent: Hashable, Sendable {
  /// Work on a file began.
  case fileStarted(path: String, size: Int64?)
  /// Work on a file ended; it counts as completed.
  case fileFinished(path: String)
  /// Counts moved on; sent at most once per observer interval.
  case update(ProgressSnapshot)
  /// The operation ended (its root manager finished or went away); the stream ends after this.
  case finished(ProgressSnapshot)
}
