extension ProgressManager {
  /// A piece of information a manager carries beside its units, such as a byte count.
  ///
  /// Declare one as Foundation's proposal SF-0023 does: a type conforming to
  /// `Property`, and a member of ``ProgressManager/Properties`` returning it,
  /// after which `manager.name` reads and writes it and
  /// `manager.summary(of: \.name)` combines it over a subtree. The allowed
  /// (`Value`, `Summary`) pairs are (`Int`, `Int`), (`UInt64`, `UInt64`),
  /// (`UInt64`, `[UInt64]`), (`Double`, `Double`), (`Duration`, `Duration`)
  /// and (`String?`, `[String?]`).
  ///
  /// Where `Value` and `Summary` are one additive type, as in a count, Folio supplies
  /// `reduce`, `merge` and `finalSummary` that sum (an ended child's count stays with its
  /// parent: the work was done). Foundation's protocol has no such default, so a property
  /// meant to build with both declares the three, as this one does:
  ///
  /// ```swift
  /// extension ProgressManager.Properties {
  ///   var pagesRendered: PagesRendered.Type { PagesRendered.self }
  ///   enum PagesRendered: ProgressManager.Property {
  ///     static var key: String { "com.example.PagesRendered" }
  ///     static var defaultValue: Int { 0 }
  ///     static var defaultSummary: Int { 0 }
  ///     static func reduce(into summary: inout Int, value: Int) { summary += value }
  ///     static func merge(_ a: Int, _ b: Int) -> Int { a + b }
  ///     static func finalSummary(_ parent: Int, _ child: Int) -> Int { parent + child }
  ///   }
  /// }
  /// ```
  public protocol Property: SendableMetatype {
    /// The type of one manager's value.
    associatedtype Value: Sendable, Equatable
    /// The type of a subtree's combined value.
    associatedtype Summary: Sendable, Equatable

    /// A unique name in reverse-DNS style.
    static var key: String { get }
    /// The value of a manager that never set one.
    static var defaultValue: Value { get }
    /// The summary of a subtree holding no values.
    static var defaultSummary: Summary { get }

    /// Adds one manager's value to a summary.
    ///
    /// - Parameters:
    ///   - summary: The summary so far.
    ///   - value: One manager's value.
    static func reduce(into summary: inout Summary, value: Value)

    /// Combines the summaries of two subtrees.
    ///
    /// - Parameters:
    ///   - summary1: One summary.
    ///   - summary2: The other.
    /// - Returns: Their combination.
    static func merge(_ summary1: Summary, _ summary2: Summary) -> Summary

    /// What a parent keeps of a child's summary when the child goes away.
    ///
    /// Counts add up (the work was done); a remaining-time estimate is dropped.
    ///
    /// - Parameters:
    ///   - parentSummary: What the parent holds of its ended children so far.
    ///   - selfSummary: The ending child's summary.
    /// - Returns: What the parent holds from now on.
    static func finalSummary(_ parentSummary: Summary, _ selfSummary: Summary) -> Summary
  }
}

// Counts sum: one default for every property whose value and summary are one additive type,
// the four file and byte counts among them, rather than three functions repeated in each.
extension ProgressManager.Property where Summary == Value, Value: AdditiveArithmetic {
  /// Adds the value.
  ///
  /// - Parameters:
  ///   - summary: The summary so far.
  ///   - value: One manager's value.
  public static func reduce(into summary: inout Summary, value: Value) { summary += value }

  /// Adds the summaries.
  ///
  /// - Parameters:
  ///   - summary1: One summary.
  ///   - summary2: The other.
  /// - Returns: Their sum.
  public static func merge(_ summary1: Summary, _ summary2: Summary) -> Summary {
    summary1 + summary2
  }

  /// Keeps an ended child's count: the work was done.
  ///
  /// - Parameters:
  ///   - parentSummary: What the parent holds of its ended children so far.
  ///   - selfSummary: The ending child's summary.
  /// - Returns: Their sum.
  public static func finalSummary(_ parentSummary: Summary, _ selfSummary: Summary) -> Summary {
    parentSummary + selfSummary
  }
}

extension ProgressManager {
  /// The properties a manager can carry, as members: SF-0023's six
  /// (``totalFileCount``, ``completedFileCount``, ``totalByteCount``,
  /// ``completedByteCount``, ``throughput``, ``estimatedTimeRemaining``),
  /// Folio's ``currentFile``, and any a program adds in an extension.
  public enum Properties: Sendable {
    /// The number of files to process.
    public var totalFileCount: TotalFileCount.Type { TotalFileCount.self }
    /// The number of files to process.
    public enum TotalFileCount: Sendable, Property {
      /// The property's name.
      public static var key: String { "Foundation.ProgressManager.Properties.TotalFileCount" }
      /// No files.
      public static var defaultValue: Int { 0 }
      /// Zero.
      public static var defaultSummary: Int { 0 }
    }

    /// The number of files processed.
    public var completedFileCount: CompletedFileCount.Type { CompletedFileCount.self }
    /// The number of files processed.
    public enum CompletedFileCount: Sendable, Property {
      /// The property's name.
      public static var key: String { "Foundation.ProgressManager.Properties.CompletedFileCount" }
      /// No files.
      public static var defaultValue: Int { 0 }
      /// Zero.
      public static var defaultSummary: Int { 0 }
    }

    /// The number of bytes to process.
    public var totalByteCount: TotalByteCount.Type { TotalByteCount.self }
    /// The number of bytes to process.
    public enum TotalByteCount: Sendable, Property {
      /// The property's name.
      public static var key: String { "Foundation.ProgressManager.Properties.TotalByteCount" }
      /// No bytes.
      public static var defaultValue: UInt64 { 0 }
      /// Zero.
      public static var defaultSummary: UInt64 { 0 }
    }

    /// The number of bytes processed.
    public var completedByteCount: CompletedByteCount.Type { CompletedByteCount.self }
    /// The number of bytes processed.
    public enum CompletedByteCount: Sendable, Property {
      /// The property's name.
      public static var key: String { "Foundation.ProgressManager.Properties.CompletedByteCount" }
      /// No bytes.
      public static var defaultValue: UInt64 { 0 }
      /// Zero.
      public static var defaultSummary: UInt64 { 0 }
    }

    /// A throughput in bytes per second, as the work measured it.
    ///
    /// Folio's own work does not set it: the observed ``ProgressSnapshot``
    /// carries the throughput measured over the whole operation.
    public var throughput: Throughput.Type { Throughput.self }
    /// A throughput in bytes per second; a subtree's summary lists every value set.
    public enum Throughput: Sendable, Property {
      /// The property's name.
      public static var key: String { "Foundation.ProgressManager.Properties.Throughput" }
      /// Nothing measured.
      public static var defaultValue: UInt64 { 0 }
      /// No values.
      public static var defaultSummary: [UInt64] { [] }
      /// Appends the value.
      public static func reduce(into summary: inout [UInt64], value: UInt64) {
        summary.append(value)
      }
      /// Joins the lists.
      public static func merge(_ summary1: [UInt64], _ summary2: [UInt64]) -> [UInt64] {
        summary1 + summary2
      }
      /// An ended child's rate says nothing about the work left.
      public static func finalSummary(_ parentSummary: [UInt64], _ selfSummary: [UInt64])
        -> [UInt64]
      { parentSummary }
    }

    /// The time the work expects to need still, as the work estimated it.
    public var estimatedTimeRemaining: EstimatedTimeRemaining.Type {
      EstimatedTimeRemaining.self
    }
    /// The time the work expects to need still; a subtree's summary is the longest.
    public enum EstimatedTimeRemaining: Sendable, Property {
      /// The property's name.
      public static var key: String {
        "Foundation.ProgressManager.Properties.EstimatedTimeRemaining"
      }
      /// No time.
      public static var defaultValue: Duration { .zero }
      /// No time.
      public static var defaultSummary: Duration { .zero }
      /// Keeps the longer.
      public static func reduce(into summary: inout Duration, value: Duration) {
        summary = max(summary, value)
      }
      /// Keeps the longer.
      public static func merge(_ summary1: Duration, _ summary2: Duration) -> Duration {
        max(summary1, summary2)
      }
      /// An ended child has no time left.
      public static func finalSummary(_ parentSummary: Duration, _ selfSummary: Duration)
        -> Duration
      { parentSummary }
    }

    /// Folio's: the file (archive entry, or path inside a package) being
    /// worked on, as the user will recognise it.
    public var currentFile: CurrentFile.Type { CurrentFile.self }
    /// The file being worked on; a subtree's summary lists every manager's.
    public enum CurrentFile: Sendable, Property {
      /// The property's name.
      public static var key: String { "Folio.ProgressManager.Properties.CurrentFile" }
      /// No file.
      public static var defaultValue: String? { nil }
      /// No files.
      public static var defaultSummary: [String?] { [] }
      /// Appends the value when there is one.
      public static func reduce(into summary: inout [String?], value: String?) {
        if value != nil { summary.append(value) }
      }
      /// Joins the lists.
      public static func merge(_ summary1: [String?], _ summary2: [String?]) -> [String?] {
        summary1 + summary2
      }
      /// An ended child works on no file.
      public static func finalSummary(_ parentSummary: [String?], _ selfSummary: [String?])
        -> [String?]
      { parentSummary }
    }
  }
}
