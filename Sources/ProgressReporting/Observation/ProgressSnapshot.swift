/// One operation's progress at one moment: counts, throughput and estimate,
/// named as SF-0023's ``ProgressManager/Properties`` name them.
public struct ProgressSnapshot: Hashable, Sendable {
  /// How much of the work is done, from 0 to 1, from the managers' units.
  public var fractionCompleted: Double
  /// Files (entries) processed so far.
  public var completedFileCount: Int
  /// Files to process, or `nil` while no work has said (a compressed tar being read).
  public var totalFileCount: Int?
  /// Bytes processed so far.
  public var completedByteCount: UInt64
  /// Bytes to process, or `nil` while no work has said.
  public var totalByteCount: UInt64?
  /// Time since the operation began.
  public var elapsed: Duration
  /// Recent throughput, in bytes per second.
  public var throughput: UInt64
  /// Estimated time left, or `nil` when there is nothing to base it on yet.
  public var estimatedTimeRemaining: Duration?
  /// The file being worked on, when an observer is watching.
  public var currentFile: String?
  /// Whether the operation has ended (successfully or not).
  public var isFinished: Bool
  /// Extended attributes and ACLs stored (pack) or handed to the files written (expand)
  /// so far.
  public var extendedAttributeCount = 0

  /// Creates a snapshot.
  ///
  /// - Parameters:
  ///   - fractionCompleted: How much of the work is done, from 0 to 1.
  ///   - completedFileCount: Files processed so far.
  ///   - totalFileCount: Files to process, if known.
  ///   - completedByteCount: Bytes processed so far.
  ///   - totalByteCount: Bytes to process, if known.
  ///   - elapsed: Time since the operation began.
  ///   - throughput: Recent throughput, in bytes per second.
  ///   - estimatedTimeRemaining: Estimated time left, if known.
  ///   - currentFile: The file being worked on.
  ///   - isFinished: Whether the operation has ended.
  public init(
    fractionCompleted: Double, completedFileCount: Int, totalFileCount: Int?,
    completedByteCount: UInt64, totalByteCount: UInt64?, elapsed: Duration, throughput: UInt64,
    estimatedTimeRemaining: Duration?, currentFile: String? = nil, isFinished: Bool = false
  ) {
    self.fractionCompleted = fractionCompleted
    self.completedFileCount = completedFileCount
    self.totalFileCount = totalFileCount
    self.completedByteCount = completedByteCount
    self.totalByteCount = totalByteCount
    self.elapsed = elapsed
    self.throughput = throughput
    self.estimatedTimeRemaining = estimatedTimeRemaining
    self.currentFile = currentFile
    self.isFinished = isFinished
  }
}
