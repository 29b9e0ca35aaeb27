// swift-format-ignore-file
// Sample code from Apple's "Handling advanced document scenarios"
// (https://developer.apple.com/documentation/swiftui/handling-advanced-document-scenarios), as
// quoted by the project's seed 003 (a Chinese translation of the article): the readable and
// writable content types of a notebook. The code between the BEGIN and END lines is copied
// unchanged; only `import SwiftUI` and `import UniformTypeIdentifiers` are replaced by `import
// Folio` (plus `import Observation` for `@Observable`). See SOURCES.md.
//
// The seed shows the two declarations alone; they sit here in a type of the tests' own
// (`NotebookContentTypes`), since `NotebookDocument` already declares `readableContentTypes`.
import Folio

enum NotebookContentTypes {
// BEGIN seed 003, readable and writable content types
static let readableContentTypes: [UTType] = [.notebook]
static let writableContentTypes: [UTType] = [.notebook, .utf8PlainText]
// END seed 003, readable and writable content types
}
