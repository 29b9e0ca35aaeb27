// swift-format-ignore-file
// Sample code from Apple's "Handling advanced document scenarios"
// (https://developer.apple.com/documentation/swiftui/handling-advanced-document-scenarios), as
// quoted by the project's seed 003 (a Chinese translation of the article): the media writer that
// writes a large payload in chunks, reporting progress per byte. The code between the BEGIN and
// END lines is copied unchanged; only `import SwiftUI` and `import UniformTypeIdentifiers` are
// replaced by `import Folio` (plus `import Observation` for `@Observable`). See SOURCES.md.
//
// The seed shows the method alone and does not declare `MediaSnapshot`; the type around the method
// and `MediaSnapshot` (a payload of bytes, as the method uses it) are the tests' own.
import Folio

struct MediaSnapshot: Sendable {
  var payload: Data
}

struct MediaWriter: DocumentWriter {
// BEGIN seed 003, chunked media writer
@concurrent
func write(
    snapshot: sending MediaSnapshot, to destination: URL,
    previous: sending MediaSnapshot?, progress: consuming Subprogress
) async throws {
    let payload = snapshot.payload
    let totalBytes = payload.count
    let progressManager = progress.start(totalCount: totalBytes)

    try Data().write(to: destination)
    let fileHandle = try FileHandle(forWritingTo: destination)
    defer { try? fileHandle.close() }

    // 目标是在整个写入过程中大约报告 100 次进度；并加以限制，
    // 让块足够大以摊薄系统调用开销，又足够小以便在极小负载上
    // 也能让进度条持续前进。
    let targetUpdateCount = 100
    let minimumChunkSize = 64 * 1024        //  64 KB
    let maximumChunkSize = 4 * 1024 * 1024  //   4 MB
    let chunkSize = min(
        maximumChunkSize,
        max(minimumChunkSize, totalBytes / targetUpdateCount)
    )

    var offset = 0
    while offset < totalBytes {
        let end = min(offset + chunkSize, totalBytes)
        let chunk = payload[offset..<end]
        try fileHandle.write(contentsOf: chunk)
        progressManager.complete(count: end - offset)
        offset = end
    }
}
// END seed 003, chunked media writer
}
