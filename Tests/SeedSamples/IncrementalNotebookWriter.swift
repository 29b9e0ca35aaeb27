// swift-format-ignore-file
// Sample code from Apple's "Handling advanced document scenarios"
// (https://developer.apple.com/documentation/swiftui/handling-advanced-document-scenarios), as
// quoted by the project's seed 003 (a Chinese translation of the article): the notebook writer
// that writes only the pages that changed, one progress unit per file. The code between the BEGIN
// and END lines is copied unchanged; only `import SwiftUI` and `import UniformTypeIdentifiers` are
// replaced by `import Folio` (plus `import Observation` for `@Observable`). See SOURCES.md.
//
// The seed shows the method alone; the type around it is the tests' own.
import Folio

struct IncrementalNotebookWriter: DocumentWriter {
// BEGIN seed 003, incremental notebook writer
@concurrent
func write(
    snapshot: sending NotebookSnapshot, to destination: URL,
    previous: sending NotebookSnapshot?, progress: consuming Subprogress
) async throws {
    let changedPages = snapshot.pages.filter { (identifier, content) in
        previous?.pages[identifier] != content
    }

    // 元数据占一个单位，每个发生变化的页面占一个单位。
    let totalUnits = 1 + changedPages.count
    let progressManager = progress.start(totalCount: totalUnits)

    // 写入元数据。
    let metadataURL = destination.appending(path: "metadata.json")
    let metadataData = try JSONEncoder().encode(snapshot.metadata)
    try metadataData.write(to: metadataURL, options: .atomic)
    progressManager.complete(count: 1)

    // 逐个写入每个发生变化的页面。
    let fileManager = FileManager.default
    let pagesDirectory = destination.appending(path: "pages")

    // 如果 pages 子目录还不存在，就创建它。
    try? fileManager.createDirectory(
        at: pagesDirectory, withIntermediateDirectories: true
    )

    for (identifier, content) in changedPages {
        let pageURL = pagesDirectory.appending(
            path: "\(identifier.uuidString).txt"
        )
        let data = Data(content.utf8)
        try data.write(to: pageURL, options: .atomic)
        progressManager.complete(count: 1)
    }
}
// END seed 003, incremental notebook writer
}
