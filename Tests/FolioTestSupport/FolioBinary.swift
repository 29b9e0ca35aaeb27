public import Foundation

/// The built `folio` executable, for the few end-to-end tests that run it as a user would.
public enum FolioBinary {
  /// `.build/debug/folio` (or `FOLIO_BINARY` when set).
  ///
  /// Tests that start it go through ``requireBuilt()`` (``run(_:in:input:environment:)`` does),
  /// so a missing binary is built or fails the test; it never skips one.
  public static var url: URL {
    if let path = ProcessInfo.processInfo.environment["FOLIO_BINARY"] {
      return URL(fileURLWithPath: path)
    }
    return ProjectPaths.root.appendingPathComponent(".build/debug/folio")
  }

  /// A build of its own, for a test run that did not build the executable: `swift test` holds
  /// the lock of `.build` while tests run, so a nested build there would wait for ever.
  static let ownBuildFolder = ProjectPaths.root.appendingPathComponent(".build/folio-end-to-end")

  /// The binary, or the outcome of building it once for this test process.
  private static let builtOnce: Result<URL, BuildFailure> = build()

  /// Why the binary is not there.
  public struct BuildFailure: Error, CustomStringConvertible {
    /// What went wrong, with the build's own output.
    public var description: String
  }

  /// The executable, built first when it is missing.
  ///
  /// `scripts/test.sh` builds it before the tests run. When it is missing (a bare
  /// `swift test --skip-build`, a filtered run), it is built once per test process with
  /// `swift build --product folio` in a scratch folder of its own. `FOLIO_BINARY` naming a
  /// file that is not executable is an error, never a skip.
  ///
  /// - Returns: The executable.
  /// - Throws: ``BuildFailure`` naming the path and the build's output.
  public static func requireBuilt() throws -> URL {
    try builtOnce.get()
  }

  private static func build() -> Result<URL, BuildFailure> {
    let expected = url
    if FileManager.default.isExecutableFile(atPath: expected.path) { return .success(expected) }
    if let path = ProcessInfo.processInfo.environment["FOLIO_BINARY"] {
      return .failure(
        BuildFailure(description: "FOLIO_BINARY names \(path), which is not an executable"))
    }
    let own = ownBuildFolder.appendingPathComponent("debug/folio")
    let result: ProcessResult
    do {
      result = try runProcess(
        "swift", ["build", "--product", "folio", "--scratch-path", ownBuildFolder.path],
        in: ProjectPaths.root)
    } catch {
      return .failure(
        BuildFailure(
          description: "\(expected.path) is missing and `swift build` could not start: \(error)"))
    }
    guard result.status == 0, FileManager.default.isExecutableFile(atPath: own.path) else {
      return .failure(
        BuildFailure(
          description:
            "\(expected.path) is missing and `swift build --product folio` failed (\(result.status)):\n\(result.outputText)\(result.errorText)"
        ))
    }
    return .success(own)
  }

  /// Runs `folio` with arguments, building it first when it is missing.
  ///
  /// - Parameters:
  ///   - arguments: The words after `folio`.
  ///   - directory: The working directory.
  ///   - input: Bytes for standard input.
  ///   - environment: Extra environment variables.
  /// - Returns: Its status and output.
  /// - Throws: ``BuildFailure`` when it is missing and cannot be built; when it cannot be started.
  public static func run(
    _ arguments: [String], in directory: URL? = nil, input: Data? = nil,
    environment: [String: String] = [:]
  ) throws -> ProcessResult {
    try runProcess(
      try requireBuilt().path, arguments, in: directory, input: input, environment: environment)
  }
}
