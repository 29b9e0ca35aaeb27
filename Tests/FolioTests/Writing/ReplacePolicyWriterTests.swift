import Folio
import FolioTestSupport
import Foundation
import Testing

/// Every writer takes one ``ReplacePolicy`` and checks it the same way: an existing output
/// is refused (`output-exists`) and left as it was unless the policy replaces it, and
/// `update` is honoured by pack and expand and refused by the writers that write whole.
@Suite struct ReplacePolicyWriterTests {
  enum Writer: String, CaseIterable, CustomTestStringConvertible {
    case pack, expand, export, propertyList

    var testDescription: String { rawValue }

    /// The output's name in the test's folder.
    var outputName: String {
      switch self {
      case .pack: "P.zip"
      case .expand: "Out"
      case .export: "out.utf16.txt"
      case .propertyList: "out.plist"
      }
    }

    /// Whether the writer can update its output, keeping what did not change.
    var updates: Bool { self == .pack || self == .expand }

    /// Makes the inputs: the package `P`, the text `a.txt`, and for expand `P-in.zip`.
    func prepare(in folder: URL) async throws {
      let package = folder.appendingPathComponent("P")
      try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
      try Data("hello\n".utf8).write(to: package.appendingPathComponent("a.txt"))
      try Data("hello\n".utf8).write(to: folder.appendingPathComponent("a.txt"))
      if self == .expand {
        _ = try await Packer.pack(package, to: folder.appendingPathComponent("P-in.zip"))
      }
    }

    /// Puts an output there already, and returns the file that holds `old`.
    ///
    /// The output is a file holding `old`, or for expand a folder holding `old.txt`.
    func makeExisting(in folder: URL) throws -> URL {
      let output = folder.appendingPathComponent(outputName)
      guard self == .expand else {
        try Data("old".utf8).write(to: output)
        return output
      }
      try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
      let kept = output.appendingPathComponent("old.txt")
      try Data("old".utf8).write(to: kept)
      return kept
    }

    /// Writes the output under `policy`; `nil` calls the writer without one.
    func write(in folder: URL, _ policy: ReplacePolicy?) async throws {
      let output = folder.appendingPathComponent(outputName)
      switch self {
      case .pack:
        var options = PackOptions()
        if let policy { options.replacePolicy = policy }
        _ = try await Packer.pack(
          folder.appendingPathComponent("P"), to: output, options: options)
      case .expand:
        let archive = folder.appendingPathComponent("P-in.zip")
        if let policy {
          _ = try await Expander.expand(archive, into: output, replacePolicy: policy)
        } else {
          _ = try await Expander.expand(archive, into: output)
        }
      case .export:
        let item = ExportItem(
          url: folder.appendingPathComponent("a.txt"), type: .utf8PlainText, displayName: "a.txt")
        let plan = try ExportPlan.make(for: item, to: .utf16PlainText, exporters: .builtIn)
        if let policy {
          _ = try await plan.run(to: output, replacePolicy: policy)
        } else {
          _ = try await plan.run(to: output)
        }
      case .propertyList:
        let value = PropertyListValue(.string("new"))
        if let policy {
          try PropertyListWriter.write(value, to: output, format: .xml, replacePolicy: policy)
        } else {
          try PropertyListWriter.write(value, to: output, format: .xml)
        }
      }
    }
  }

  private func code(of error: (any Error)?) -> String? {
    (error as? any FolioError)?.code.rawValue
  }

  @Test(arguments: Writer.allCases)
  func refusesAnExistingOutputWithoutAPolicyAndLeavesItUntouched(_ writer: Writer) async throws {
    try await withTemporaryDirectory("replace-writers") { folder in
      try await writer.prepare(in: folder)
      let kept = try writer.makeExisting(in: folder)
      for policy in [nil, ReplacePolicy.refuse] {
        let error = await #expect(throws: (any Error).self, "\(String(describing: policy))") {
          try await writer.write(in: folder, policy)
        }
        #expect(code(of: error) == "output-exists", "\(String(describing: error))")
        #expect(
          (error as? any FolioError)?.message
            == "'\(folder.appendingPathComponent(writer.outputName).path)' already exists")
        #expect(try Data(contentsOf: kept) == Data("old".utf8))
      }
      // P, a.txt and the output (and expand's archive): no temporary is left beside it.
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      #expect(names.count == (writer == .expand ? 4 : 3), "\(names)")
    }
  }

  @Test(arguments: Writer.allCases)
  func replacesAnExistingOutputWithReplace(_ writer: Writer) async throws {
    try await withTemporaryDirectory("replace-writers") { folder in
      try await writer.prepare(in: folder)
      let kept = try writer.makeExisting(in: folder)
      try await writer.write(in: folder, .replace)
      #expect((try? Data(contentsOf: kept)) != Data("old".utf8))
      #expect(
        FileManager.default.fileExists(
          atPath: folder.appendingPathComponent(writer.outputName).path))
    }
  }

  @Test(arguments: Writer.allCases)
  func updateIsHonouredWhereThereIsSomethingToKeepAndRefusedElsewhere(_ writer: Writer)
    async throws
  {
    try await withTemporaryDirectory("replace-writers") { folder in
      try await writer.prepare(in: folder)
      try await writer.write(in: folder, nil)
      let output = folder.appendingPathComponent(writer.outputName)
      if writer.updates {
        try await writer.write(in: folder, .update)
        #expect(FileManager.default.fileExists(atPath: output.path))
      } else {
        let before = try Data(contentsOf: output)
        let error = await #expect(throws: (any Error).self) {
          try await writer.write(in: folder, .update)
        }
        #expect(code(of: error) == "update-unsupported")
        #expect(try Data(contentsOf: output) == before)
      }
    }
  }
}
