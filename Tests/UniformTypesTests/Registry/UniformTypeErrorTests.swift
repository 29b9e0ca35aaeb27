import FolioSystem
import Testing
import UniformTypes

@Suite struct UniformTypeErrorTests {
  @Test func descriptionNamesPlaceMessageAndCause() {
    let error = UniformTypeError(
      .init("example"), "cannot read 'x'", location: SourceLocation(file: "x", line: 2, column: 3),
      cause: UniformTypeError(.init("inner"), "No such file or directory"))
    #expect(error.description == "x:2:3: cannot read 'x': No such file or directory")
    #expect(error.code == .init("example"))
  }
}
