// swift-format-ignore-file
// Sample code from Apple's "Creating a document-based app"
// (https://developer.apple.com/documentation/swiftui/creating-a-document-based-app), as quoted by
// the project's seed 000 (a Chinese translation of the article): the text document. The code
// between the BEGIN and END lines is copied unchanged; only `import SwiftUI` and `import
// UniformTypeIdentifiers` are replaced by `import Folio` (plus `import Observation` for
// `@Observable`). See SOURCES.md.
import Folio
import Observation

// BEGIN seed 000, TextDocument
@Observable
final class TextDocument: Document {
    static let readableContentTypes = [UTType.plainText]

    var text: String
    var configuration: URLDocumentConfiguration

    init(configuration: URLDocumentConfiguration) {
        self.text = ""
        self.configuration = configuration
    }

    // 返回一个把 `FileWrapper` 转换成快照的读取器。

    func reader(
        configuration: sending ReadConfiguration
    ) -> sending FileWrapperDocumentReader<String> {
        FileWrapperDocumentReader(configuration) { fileWrapper in
            if let data = fileWrapper.regularFileContents,
               let text = String(data: data, encoding: .utf8) {
                return text
            }
            return ""
        }
    }

    @MainActor
    func apply(snapshot: String, previous: String?) async throws {
        self.text = snapshot
    }

    // 返回一个把快照转换成 `FileWrapper` 的写入器。

    func writer(
        configuration: sending WriteConfiguration
    ) -> sending FileWrapperDocumentWriter<String> {
        FileWrapperDocumentWriter(configuration) { snapshot, previous in
            let data = Data(snapshot.utf8)
            return FileWrapper(regularFileWithContents: data)
        }
    }

    @MainActor
    func snapshot(contentType: UTType) async throws -> sending String {
        text
    }
}
// END seed 000, TextDocument
