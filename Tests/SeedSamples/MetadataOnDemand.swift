// swift-format-ignore-file
// Sample code from Apple's "Handling advanced document scenarios"
// (https://developer.apple.com/documentation/swiftui/handling-advanced-document-scenarios), as
// quoted by the project's seed 003 (a Chinese translation of the article): reading one file of a
// package through `makeFileCoordinator()`. The code between the BEGIN and END lines is copied
// unchanged; only `import SwiftUI` and `import UniformTypeIdentifiers` are replaced by `import
// Folio` (plus `import Observation` for `@Observable`). See SOURCES.md.
//
// The seed shows the statements alone, with `document` and `packageURL` free; the function around
// them is the tests' own. `document` is a `TextDocument`, the seed document that keeps its
// `URLDocumentConfiguration`.
import Folio

@MainActor
func readMetadataOnDemand(document: TextDocument, packageURL: URL) {
// BEGIN seed 003, makeFileCoordinator
let coordinator = document.configuration.makeFileCoordinator()
coordinator.coordinate(
    readingItemAt: packageURL.appending(path: "metadata.json"),
                       options: []) { url in
    do {
        let data = try Data(contentsOf: url)
        let metadata = try JSONDecoder().decode(NotebookMetadata.self, from: data)
        // 处理元数据。
    } catch {
        // 处理错误。
    }
}
// END seed 003, makeFileCoordinator
}
