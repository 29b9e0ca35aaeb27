import Archives
import FolioSystem
import Testing

@Suite struct PackagingErrorTests {
  @Test func descriptionNamesPlaceMessageAndCause() {
    let error = PackagingError(
      .init("example"), "cannot read 'x'", location: SourceLocation(file: "x", line: 2, column: 3),
      cause: PackagingError(.init("inner"), "No such file or directory"))
    #expect(error.description == "x:2:3: cannot read 'x': No such file or directory")
    #expect(error.code == .init("example"))
  }
}
