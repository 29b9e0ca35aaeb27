import Documents
import FolioSystem
import Testing

@Suite struct ExportErrorTests {
  @Test func descriptionNamesPlaceMessageAndCause() {
    let error = ExportError(
      .init("example"), "cannot read 'x'", location: SourceLocation(file: "x", line: 2, column: 3),
      cause: ExportError(.init("inner"), "No such file or directory"))
    #expect(error.description == "x:2:3: cannot read 'x': No such file or directory")
    #expect(error.code == .init("example"))
  }
}
