/// One operation's progress at one moment: counts, rate and estimate.
public struct ProgressSnapshot: Hashable, Sendable {
  /// How much of the work is done, from 0 to 1, from the reporters' units.
  public var fractionCompleted: Double
  /// Files (entries) processed so far.
  public var completedFiles: Int
  /// Files to process, or `nil` while unknown (a compressed tar being read).
  public var totalFiles: Int?
  /// Bytes processed so far.
  public var completedBytes: Int64
  /// Bytes to process, or `nil` while unknown.
  public var totalBytes: Int64?
  /// Time since the operation began.
  public var elapsed: Duration
  /// Recent throughput, in bytes per second.
  public var bytesPerSecond: Double
  /// Estimated time left, or `nil` when there is nothing to base it on yet.
  public var estimatedTimeRemaining: Duration?
  /// The file being worked on, when an observer is watching.
  public var currentFile: String?
  /// Whether the operation was cancelled.
  public var isCancelled: Bool
  /// Whether the operation has finished (successfully or not).
  public var isFinished: Bool

  /// Creates a snapshot.
  ///
  /// - Parameters:
  ///   - fractionCompleted: How much of the work is done, from 0 to 1.
  ///   - completedFiles: Files processed so far.
  ///   - totalFiles: Files to process, if known.
  ///   - completedBytes: Bytes processed so far.
  ///   - totalBytes: Bytes to process, if known.
  ///   - elapsed: Time since the operation began.
  ///   - bytesPerSecond: Recent throughput.
  ///   - estimatedTimeRemaining: Estimated time left, if known.
  ///   - currentFile: The file being worked on.
  ///   - isCancelled: Whether the operation was cancelled.
  ///   - isFinished: Whether the operation has finished.
  public init(
    fractionCompleted: Double, completedFiles: Int, totalFiles: Int?, completedBytes: Int64,
    totalBytes: Int64?, elapsed: Duration, bytesPerSecond: Double,
    estimatedTimeRemaining: Duration?, currentFile: String? = nil, isCancelled: Bool = false,
    isFinished: Bool = false
  ) {
    self.fractionCompleted = fractionCompleted
    self.completedFiles = completedFiles
    self.totalFiles = totalFiles
    self.completedBytes = completedBytes
    self.totalBytes = totalBytes
    self.elapsed = elapsed
    self.bytesPerSecond = bytesPerSecond
    self.estimatedTimeRemaining = estimatedTimeRemaining
    self.currentFile = currentFile
    self.isCancelled = isCancelled
    self.isFinished = isFinished
  }
}
