import FolioSystem
import Foundation
import Testing

/// A domain of the tests' own, declared as a module declares its domain.
enum SampleErrorDomain: FolioErrorDomain {
  struct Code: FolioErrorCode {
    let rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }
  }

  static let name = "Folio.SampleError"

  static func recoverySuggestion(for code: Code) -> String? {
    code == .busy ? "Try again when the other program is done." : nil
  }
}

extension SampleErrorDomain.Code {
  static let busy = Self("busy")
  static let unreadable = Self("unreadable")
}

typealias SampleError = FolioFailure<SampleErrorDomain>

/// A second domain, to tell one module's errors from another's.
enum OtherErrorDomain: FolioErrorDomain {
  struct Code: FolioErrorCode {
    let rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }
  }

  static let name = "Folio.OtherError"

  static func recoverySuggestion(for code: Code) -> String? { nil }
}

typealias OtherError = FolioFailure<OtherErrorDomain>

@Suite struct FolioFailureTests {
  static let location = SourceLocation(file: "Info.plist", line: 3, column: 5)

  @Test func keepsTheCodeMessageLocationAndCause() {
    let error = SampleError(
      .unreadable, "cannot read 'Info.plist'", location: Self.location,
      cause: SystemError(errno: ENOENT))
    #expect(error.code == .unreadable)
    #expect(error.code.rawValue == "unreadable")
    #expect(error.code.description == "unreadable")
    #expect(error.message == "cannot read 'Info.plist'")
    #expect(error.location == Self.location)
    #expect(error.cause as? SystemError == SystemError(errno: ENOENT))
    let bare = SampleError(.busy, "'Drawing' is busy")
    #expect(bare.location == nil)
    #expect(bare.cause == nil)
  }

  @Test func descriptionReadsLocationMessageAndCause() {
    let error = SampleError(
      .unreadable, "cannot read 'Info.plist'", location: Self.location,
      cause: SystemError(errno: ENOENT))
    #expect(
      error.description == "Info.plist:3:5: cannot read 'Info.plist': No such file or directory")
    #expect(error.errorDescription == error.description)
    #expect(SampleError(.busy, "'Drawing' is busy").description == "'Drawing' is busy")
  }

  @Test func rootCauseIsTheDeepestCauseUnderAChainOfFolioErrors() {
    let inner = SampleError(.unreadable, "cannot read 'a'", cause: SystemError(errno: EIO))
    let outer = OtherError(.init("wrapped"), "cannot export 'a'", cause: inner)
    #expect(outer.rootCause as? SystemError == SystemError(errno: EIO))
    let alone = SampleError(.busy, "'Drawing' is busy")
    #expect((alone.rootCause as? SampleError)?.message == "'Drawing' is busy")
  }

  @Test func recoverySuggestionIsTheDomainsAdviceForTheCode() {
    #expect(
      SampleError(.busy, "x").recoverySuggestion == "Try again when the other program is done.")
    #expect(SampleError(.unreadable, "x").recoverySuggestion == nil)
    let error: any Error = SampleError(.busy, "x")
    #expect((error as? any LocalizedError)?.recoverySuggestion != nil)
  }

  @Test func aCatchByTheDomainsNameTakesThatDomainsErrorsAlone() {
    func kind(of error: any Error) -> String {
      do {
        throw error
      } catch let error as SampleError {
        return "sample \(error.code)"
      } catch let error as any FolioError {
        return "other \(error.code.rawValue)"
      } catch {
        return "not Folio's"
      }
    }
    #expect(kind(of: SampleError(.busy, "x")) == "sample busy")
    #expect(kind(of: OtherError(.init("busy"), "x")) == "other busy")
    #expect(kind(of: SystemError(errno: EIO)) == "not Folio's")
  }
}
