import Folio
import FolioTestSupport
import Foundation
import Testing

/// Folio's errors read as Apple's do where apps show them: `localizedDescription` is Folio's
/// own text (Apple's `LocalizedError.errorDescription`, "A localized message describing
/// what error occurred"), and each bridges to an `NSError` with a stable domain and code
/// and its cause as `NSUnderlyingErrorKey` (Apple's `CustomNSError`).
@Suite struct FolioErrorBridgingTests {
  static let errors: [any FolioError] = [
    PropertyListError(.unrepresentable, "JSON cannot hold a date value"),
    UniformTypeError(.invalidConfiguration, "the baseline 'b.json' is not a baseline"),
    PackagingError(
      .invalidEntry, "cannot add an entry: the archive writer was already closed",
      cause: SystemError(errno: ENOSPC)),
    ExportError(.readFailed, "no exporter writes 'public.png' from 'public.text'"),
  ]

  @Test(arguments: 0..<4) func localizedDescriptionIsTheMessage(index: Int) {
    let error = Self.errors[index]
    #expect(error.localizedDescription == error.description)
    #expect(error.localizedDescription.contains(error.message))
    #expect(!error.localizedDescription.contains("The operation could not be completed"))
  }

  /// Each module's domain, in the order of ``errors``.
  static let domains = [
    "Folio.PropertyListError", "Folio.UniformTypeError", "Folio.PackagingError",
    "Folio.ExportError",
  ]

  @Test(arguments: 0..<4) func bridgesToAnNSErrorWithAStableDomainAndCode(index: Int) {
    let error = Self.errors[index]
    let bridged = error as NSError
    #expect(bridged.domain == Self.domains[index])
    #expect(bridged.code > 0)
    #expect(bridged.localizedDescription == error.description)
    #expect(bridged.userInfo["FolioErrorCode"] as? String == error.code.rawValue)
    #expect((error as NSError).code == bridged.code)
    if error.cause != nil {
      #expect(bridged.userInfo[NSUnderlyingErrorKey] != nil)
    }
  }

  /// One bridging serves every module: the domain is the module's, the number is the code's
  /// spelling's, so one spelling in two modules gives one number in two domains.
  @Test func eachModulesErrorBridgesWithItsOwnDomainAndCode() {
    let bridged = [
      PropertyListError(.readFailed, "cannot read 'a.plist'") as NSError,
      UniformTypeError(.init("read-failed"), "cannot read 'b.plist'") as NSError,
      PackagingError(.init("read-failed"), "cannot read 'c.zip'") as NSError,
      ExportError(.readFailed, "cannot read 'd.txt'") as NSError,
    ]
    #expect(bridged.map(\.domain) == Self.domains)
    // FNV-1a of `read-failed`: apps may store the number, so it must not change.
    #expect(bridged.map(\.code) == Array(repeating: 1_379_252_589, count: 4))
    #expect((PackagingError(.lockTimeout, "'a' is locked") as NSError).code != bridged[2].code)
  }

  @Test func aRealFailureReadsWell() async throws {
    try await withTemporaryDirectory("bridging") { folder in
      do {
        _ = try await Packer.pack(
          folder.appendingPathComponent("missing.examplenotebook"),
          to: folder.appendingPathComponent("out.zip"))
        Issue.record("packing a missing folder succeeded")
      } catch {
        #expect(
          error.localizedDescription.contains("missing.examplenotebook"),
          "\(error.localizedDescription)")
      }
    }
  }

  /// Apple's `LocalizedError.recoverySuggestion` ("A localized message describing how one
  /// might recover from the failure",
  /// https://developer.apple.com/documentation/foundation/localizederror/recoverysuggestion):
  /// Folio gives one where it has advice, in words that name no command-line option.
  @Test func errorsWithAdviceGiveARecoverySuggestion() {
    let advised: [any FolioError] = [
      PackagingError(.outputExists, "'Drawing.sketchbook' already exists"),
      PackagingError(.lockTimeout, "another process holds 'Drawing.sketchbook'"),
      PropertyListError(.inputTooLarge, "the file is 9 bytes, more than the limit"),
      ExportError(.outputExists, "'Drawing.pdf' already exists"),
      UniformTypeError(.unknownType, "no type com.example.sketchbok is known"),
    ]
    for error in advised {
      let suggestion = error.recoverySuggestion
      #expect(suggestion != nil, "\(error.code)")
      #expect(suggestion?.contains("--") == false)
      #expect((error as NSError).localizedRecoverySuggestion == suggestion)
    }
    #expect(PackagingError(.corruptArchive, "the archive is damaged").recoverySuggestion == nil)
  }

  /// The errno under a Folio error bridges as Apple's do: `NSPOSIXErrorDomain` and the
  /// number, read by the system's words.
  @Test func aSystemErrorBridgesToThePOSIXDomain() throws {
    let error = PackagingError(
      .fileSystem, "cannot write 'x.zip'", cause: SystemError(errno: ENOSPC))
    let underlying = try #require((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)
    #expect(underlying.domain == NSPOSIXErrorDomain)
    #expect(underlying.code == Int(ENOSPC))
    #expect(underlying.localizedDescription == String(cString: strerror(ENOSPC)))
    #expect(SystemError(errno: ENOENT).localizedDescription == "No such file or directory")
  }
}
