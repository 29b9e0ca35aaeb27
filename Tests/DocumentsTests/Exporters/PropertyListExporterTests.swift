import Documents
import FolioTestSupport
import Foundation
import PropertyLists
import Testing
import UniformTypes

/// A value with dictionary keys sorted, so two serialisations compare by content only.
private func canonical(_ value: PropertyListValue) -> PropertyListValue {
  switch value.content {
  case .dictionary(let entries):
    return PropertyListValue(
      .dictionary(
        entries.map { PropertyListValue.DictionaryEntry(key: $0.key, value: canonical($0.value)) }
          .sorted { $0.key < $1.key }))
  case .array(let items):
    return PropertyListValue(.array(items.map(canonical)))
  case .unsignedInteger(let value) where value <= UInt64(Int64.max):
    return PropertyListValue(.integer(Int64(value)))
  default:
    return PropertyListValue(value.content)
  }
}

@Suite struct PropertyListExporterTests {
  private let conversions: [(UTType, String)] = [
    (.xmlPropertyList, "xml1"), (.binaryPropertyList, "binary1"), (.json, "json"),
  ]

  @Test(.enabled(if: programExists("plutil")))
  func conversionsMatchPlutilOnTheCorpusAndTheSample() async throws {
    let files = try ProjectPaths.plistCorpusFiles() + [ProjectPaths.sampleInfoPlist]
    try await withTemporaryDirectory("export") { folder in
      var compared = 0
      for (index, file) in files.enumerated() {
        let input = folder.appendingPathComponent("in\(index).plist")
        try FileManager.default.copyItem(at: file, to: input)
        for (target, plutilFormat) in conversions {
          let ours = folder.appendingPathComponent("ours\(index)-\(plutilFormat)")
          let theirs = folder.appendingPathComponent("theirs\(index)-\(plutilFormat)")
          let oracle = try runProcess(
            "plutil", ["-convert", plutilFormat, "-o", theirs.path, input.path])
          let outcome: Result<(URL, ExportResult, ExportPlan), any Error>
          do {
            outcome = .success(
              try await export(
                input, as: .propertyList, to: target, into: folder, name: ours.lastPathComponent))
          } catch {
            outcome = .failure(error)
          }
          guard oracle.status == 0 else {
            // plutil refuses (malformed input, or a date or data for JSON): so must we.
            #expect(throws: (any Error).self, "\(file.lastPathComponent) → \(plutilFormat)") {
              try outcome.get()
            }
            continue
          }
          if case .failure(let error) = outcome {
            // Folio reads XML, binary and JSON property lists, not old OpenStep text; it says so.
            if "\(error)".contains("OpenStep") { continue }
            Issue.record(
              "\(file.lastPathComponent) → \(plutilFormat): plutil converts, we fail: \(error)")
            continue
          }
          let mine = try PropertyListReader.read(contentsOf: ours).root
          let reference = try PropertyListReader.read(contentsOf: theirs).root
          #expect(
            canonical(mine) == canonical(reference), "\(file.lastPathComponent) → \(plutilFormat)")
          // And the peers read what we wrote (plutil here does not read JSON; Python does).
          let check =
            plutilFormat == "json"
            ? try runProcess(
              "python3", ["-c", "import json,sys; json.load(open(sys.argv[1]))", ours.path])
            : try runProcess("plutil", ["-lint", ours.path])
          #expect(
            check.status == 0, "\(file.lastPathComponent) → \(plutilFormat): \(check.errorText)")
          compared += 1
        }
      }
      #expect(compared >= 60)
    }
  }

  @Test func jsonInputBecomesABinaryPropertyList() async throws {
    try await withTemporaryDirectory("export") { folder in
      let input = folder.appendingPathComponent("settings.json")
      try Data(#"{"name": "Folio", "count": 3, "tags": ["a", "b"], "on": true}"#.utf8).write(
        to: input)
      let (output, _, plan) = try await export(input, to: .binaryPropertyList, into: folder)
      #expect(plan.steps.map(\.exporter.name) == ["json-to-binary-plist"])
      #expect(output.lastPathComponent == "settings.plist")
      let document = try PropertyListReader.read(contentsOf: output)
      #expect(document.format == .binary)
      #expect(document.root["name"]?.stringValue == "Folio")
      #expect(document.root["tags"]?.arrayValue?.count == 2)
    }
  }

  @Test func sameNamedOutputGetsADistinguishingSuffix() async throws {
    try await withTemporaryDirectory("export") { folder in
      let input = folder.appendingPathComponent("Info.plist")
      try FileManager.default.copyItem(at: ProjectPaths.sampleInfoPlist, to: input)
      let (output, _, _) = try await export(input, to: .binaryPropertyList, into: folder)
      #expect(output.lastPathComponent == "Info-binary.plist")
    }
  }

  @Test func repeatedKeysAreWrittenOnceWithTheLastValueAndAWarning() async throws {
    try await withTemporaryDirectory("export") { folder in
      let input = folder.appendingPathComponent("twice.plist")
      try Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>a</key><string>first</string><key>b</key><true/><key>a</key><string>last</string></dict></plist>
        """.utf8
      ).write(to: input)
      let (output, result, _) = try await export(input, to: .json, into: folder)
      #expect(try String(contentsOf: output, encoding: .utf8).contains("last"))
      #expect(try !String(contentsOf: output, encoding: .utf8).contains("first"))
      #expect(
        try PropertyListReader.read(contentsOf: output).root.dictionaryEntries?.map(\.key) == [
          "a", "b",
        ])
      #expect(result.diagnostics.contains { $0.severity == .warning })
    }
  }

  @Test func dateCannotBecomeJSON() async throws {
    try await withTemporaryDirectory("export") { folder in
      let input = folder.appendingPathComponent("dated.plist")
      try Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>when</key><date>2026-01-02T03:04:05Z</date></dict></plist>
        """.utf8
      ).write(to: input)
      let error = await #expect(throws: PropertyListError.self) {
        try await export(input, to: .json, into: folder)
      }
      #expect(error?.code.rawValue == "unrepresentable")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["dated.plist"])
    }
  }
}
