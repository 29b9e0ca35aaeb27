import FolioTestSupport
import Foundation
import Testing

/// Every target imports only the package's modules it declares in `Package.swift`.
///
/// Swift lets a target import a module it only reaches through another dependency, so the
/// compiler does not hold the manifest to what the code uses; this test does, for the
/// package's own modules (system modules and the toolchain's are not listed there).
@Suite struct ModuleImportTests {
  /// A target as the manifest declares it.
  struct Target {
    var name: String
    var folder: String
    var dependencies: Set<String>
  }

  /// The targets of `Package.swift`, read from its text: the manifest is cut at each
  /// `.target(`, `.testTarget(`, `.executableTarget(` or `.systemLibrary(` call, and each
  /// piece gives the call's name, optional path and dependency list.
  static func manifestTargets() throws -> [Target] {
    let manifest = try String(
      contentsOf: ProjectPaths.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let calls = manifest.matches(of: #/\.(target|testTarget|executableTarget|systemLibrary)\(/#)
    var targets: [Target] = []
    for (index, call) in calls.enumerated() where call.output.1 != "systemLibrary" {
      let end = index + 1 < calls.count ? calls[index + 1].range.lowerBound : manifest.endIndex
      let body = manifest[call.range.upperBound..<end]
      guard let name = body.firstMatch(of: #/name:\s*"([^"]+)"/#)?.output.1 else { continue }
      let path = body.firstMatch(of: #/path:\s*"([^"]+)"/#)?.output.1
      var dependencies: Set<String> = []
      if let list = body.firstMatch(of: #/dependencies:\s*\[([^\]]*)\]/#)?.output.1 {
        for quoted in list.matches(of: #/"([^"]+)"/#) {
          dependencies.insert(String(quoted.output.1))
        }
      }
      let folder =
        path.map(String.init)
        ?? (call.output.1 == "testTarget" ? "Tests/\(name)" : "Sources/\(name)")
      targets.append(Target(name: String(name), folder: folder, dependencies: dependencies))
    }
    return targets
  }

  /// The modules a folder's Swift files import, with the first file that imports each.
  static func imports(under folder: URL) throws -> [String: String] {
    var found: [String: String] = [:]
    let importLine =
      #/^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|func|var|let|protocol|typealias)\s+)?(\w+)/#
    guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    else { return found }
    for case let file as URL in files where file.pathExtension == "swift" {
      let text = try String(contentsOf: file, encoding: .utf8)
      for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        guard let match = line.firstMatch(of: importLine) else { continue }
        let module = String(match.output.1)
        if found[module] == nil {
          found[module] = String(file.path.dropFirst(ProjectPaths.root.path.count + 1))
        }
      }
    }
    return found
  }

  @Test func theManifestListsEveryTargetWithItsFolder() throws {
    let targets = try Self.manifestTargets()
    let names = Set(targets.map(\.name))
    for expected in [
      "FolioSystem", "Archives", "Documents", "FolioCommands", "folio", "FolioTests",
    ] {
      #expect(names.contains(expected), "Package.swift's \(expected) was not read")
    }
    for target in targets {
      #expect(
        FileManager.default.fileExists(
          atPath: ProjectPaths.root.appendingPathComponent(target.folder).path),
        "\(target.name): no folder \(target.folder)")
    }
  }

  @Test func everyTargetDeclaresThePackageModulesItImports() throws {
    let targets = try Self.manifestTargets()
    let packageModules = Set(targets.map(\.name)).union([
      "CLibArchive", "CLibXML2", "CZlib", "CLibDeflate", "CZstd",
    ])
    for target in targets {
      let imported = try Self.imports(
        under: ProjectPaths.root.appendingPathComponent(target.folder))
      for (module, file) in imported.sorted(by: { $0.key < $1.key })
      where packageModules.contains(module) && module != target.name
        && !target.dependencies.contains(module)
      {
        Issue.record("\(file) imports \(module), which \(target.name) does not declare")
      }
    }
  }
}
