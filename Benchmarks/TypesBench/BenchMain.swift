// Benchmarks for the UniformTypes module; built and run by scripts/bench/types.sh.
//
//   types-bench CORPUS_DIR INFO_PLIST ROUNDS LOOKUPS [MIME_DIR FILE_LIST]
//
// 1. Validates every *.plist of CORPUS_DIR, ROUNDS times (read, parse, decode,
//    build the registry, apply every rule), one file per validation as
//    `folio validate FILE` does.
// 2. Looks up LOOKUPS filename extensions (known, multi-part, unknown, mixed case).
// 3. Answers LOOKUPS conformance questions from the precomputed closure, and
//    the same questions by walking the graph, to show what precomputing buys.
// 4. With MIME_DIR (a `mime` folder holding packages/*.xml) and FILE_LIST (one path a
//    line): loads the shared MIME database and builds the registry with it (median of
//    ROUNDS), reads the first bytes of every listed file, then identifies every file by
//    name and content from those bytes in memory, and by name alone.
import Foundation
import PropertyLists
import UniformTypes

@main
struct TypesBench {
  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  static func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 5 || arguments.count == 7, let rounds = Int(arguments[3]),
      let lookups = Int(arguments[4])
    else {
      print("usage: types-bench CORPUS_DIR INFO_PLIST ROUNDS LOOKUPS [MIME_DIR FILE_LIST]")
      exit(64)
    }
    if arguments.count == 7 {
      try desktop(
        mimeDirectory: URL(fileURLWithPath: arguments[5]), fileList: arguments[6], rounds: rounds)
      return
    }
    let corpus = URL(fileURLWithPath: arguments[1])
    let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
      .filter { $0.hasSuffix(".plist") }.sorted().map { corpus.appendingPathComponent($0) }
    let bytes = try files.reduce(0) { $0 + (try Data(contentsOf: $1)).count }

    // 1. Validation, after the reading alone for reference.
    var values = 0
    let reading = seconds {
      for _ in 0..<rounds {
        for file in files {
          if (try? PropertyListReader.read(contentsOf: file)) != nil { values += 1 }
        }
      }
    }
    print(
      String(
        format: "read only (PropertyListReader): %.2f s, %.2f ms/file", reading,
        reading * 1000 / Double(rounds * files.count)))
    var registries = 0
    let building = seconds {
      for _ in 0..<(rounds * files.count) {
        registries += TypeRegistryBuilder().build().declarations.isEmpty ? 0 : 1
      }
    }
    print(
      String(
        format: "registry build (system types): %.2f s, %.3f ms/build", building,
        building * 1000 / Double(rounds * files.count)))

    let validator = TypeDeclarationValidator()
    var diagnostics = 0
    let validation = try seconds {
      for _ in 0..<rounds {
        for file in files {
          diagnostics += try validator.validate([.init(url: file)]).diagnostics.count
        }
      }
    }
    let validations = rounds * files.count
    print(
      String(
        format:
          "validate: %d files x %d rounds = %d validations in %.2f s: %.0f files/s, %.2f ms/file, %.1f MB/s (%d diagnostics)",
        files.count, rounds, validations, validation, Double(validations) / validation,
        validation * 1000 / Double(validations),
        Double(bytes * rounds) / validation / 1e6, diagnostics))

    var schemaDiagnostics = 0
    let schemaValidation = try seconds {
      for _ in 0..<rounds {
        for file in files {
          let report = try validator.validate([.init(url: file)], schema: true)
          schemaDiagnostics += report.diagnostics.count
          precondition(
            !report.diagnostics.contains { $0.message.contains("could not compile") },
            "a schema failed to compile")
        }
      }
    }
    print(
      String(
        format:
          "validate --schema: %d validations in %.2f s: %.0f files/s, %.2f ms/file (%d diagnostics)",
        validations, schemaValidation, Double(validations) / schemaValidation,
        schemaValidation * 1000 / Double(validations), schemaDiagnostics))

    // 2. Extension lookups.
    let (registry, _) = try TypeRegistry.load(
      declarationFiles: [URL(fileURLWithPath: arguments[2])])
    var extensions: [String] = []
    for declaration in registry.declarations {
      extensions += declaration.filenameExtensions
      extensions += declaration.filenameExtensions.map { $0.uppercased() }
    }
    extensions += ["tar.gz", "TAR.ZST", "nothing", "qqq", "examplenotebook", "Md"]
    var found = 0
    let lookupTime = seconds {
      for index in 0..<lookups {
        if registry.type(forFilenameExtension: extensions[index % extensions.count]) != nil {
          found += 1
        }
      }
    }
    print(
      String(
        format: "extension lookups: %d in %.3f s: %.0f ns/lookup (%d distinct tags, %d found)",
        lookups, lookupTime, lookupTime * 1e9 / Double(lookups), extensions.count, found))

    var names: [String] = []
    for (index, name) in extensions.enumerated() { names.append("file\(index).\(name)") }
    var identified = 0
    let identifyTime = seconds {
      for index in 0..<lookups {
        if !registry.identify(fileName: names[index % names.count], kind: .regularFile).isDynamic {
          identified += 1
        }
      }
    }
    print(
      String(
        format: "identify(fileName:): %d in %.3f s: %.0f ns/name", lookups, identifyTime,
        identifyTime * 1e9 / Double(lookups)))

    // 3. Conformance.
    let types = registry.declarations.map(\.identifier)
    let targets: [TypeIdentifier] = [
      .data, .item, .content, .text, .image, .archive, .package, .audiovisualContent,
      .plainText, .xml, "com.example.notebook",
    ]
    var pairs: [(TypeIdentifier, TypeIdentifier)] = []
    for type in types { for target in targets { pairs.append((type, target)) } }
    var yes = 0
    let closureTime = seconds {
      for index in 0..<lookups {
        let (type, target) = pairs[index % pairs.count]
        if registry.conforms(type, to: target) { yes += 1 }
      }
    }
    print(
      String(
        format:
          "conformance (precomputed closure): %d pairs in %.3f s: %.0f ns/pair (%d types, %d true)",
        lookups, closureTime, closureTime * 1e9 / Double(lookups), types.count, yes))

    var walkYes = 0
    let walkTime = seconds {
      for index in 0..<lookups {
        let (type, target) = pairs[index % pairs.count]
        if walk(registry, from: type, to: target) { walkYes += 1 }
      }
    }
    precondition(walkYes == yes, "the graph walk disagrees with the closure")
    print(
      String(
        format: "conformance (graph walk per query, for comparison): %.3f s: %.0f ns/pair",
        walkTime, walkTime * 1e9 / Double(lookups)))
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
  }

  /// 4. The shared MIME database: loading it, and identifying files by name and content.
  static func desktop(mimeDirectory: URL, fileList: String, rounds: Int) throws {
    // As folio loads it, keeping only the user's languages' comments (in the C locale none
    // but the untranslated one; a German user's too), then every translation, as a program
    // showing descriptions in any language would.
    var registry = TypeRegistry.system
    // The part of a registry build that is Apple's table alone, for comparison.
    var systemBuilds: [Double] = []
    for _ in 0..<max(1, rounds) {
      systemBuilds.append(seconds { registry = TypeRegistryBuilder().build() })
    }
    print(
      String(
        format: "registry build of the system types alone: %.1f ms (median of %d; %d types)",
        median(systemBuilds) * 1000, systemBuilds.count, registry.declarations.count))
    let locales: [(String, [String]?)] = [
      ("C locale", []), ("de_DE", ["de_DE", "de"]), ("all languages", nil),
    ]
    // The cache folio keeps in $XDG_CACHE_HOME/folio, here in a scratch folder of its own.
    let cacheFolder = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("folio-types-bench-\(getpid())", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: cacheFolder) }
    let cache = MIMEDatabaseCache(directory: cacheFolder)
    for (label, languages) in locales {
      var parses: [Double] = []
      var cachedReads: [Double] = []
      var builds: [Double] = []
      let uncached = MIMEDatabase.load(mimeDirectories: [mimeDirectory], languages: languages)
      precondition(
        MIMEDatabase.load(mimeDirectories: [mimeDirectory], languages: languages, cache: cache)
          == uncached, "the cache gives another database")
      for _ in 0..<max(1, rounds) {
        // Alternating: the XML, the cache, the registry build.
        var database = MIMEDatabase.empty
        parses.append(
          seconds {
            database = MIMEDatabase.load(mimeDirectories: [mimeDirectory], languages: languages)
          })
        precondition(database.diagnostics.isEmpty, "\(database.diagnostics.prefix(3))")
        cachedReads.append(
          seconds {
            database = MIMEDatabase.load(
              mimeDirectories: [mimeDirectory], languages: languages, cache: cache)
          })
        builds.append(
          seconds {
            var builder = TypeRegistryBuilder()
            builder.add(database, languages: languages ?? [])
            registry = builder.build()
          })
      }
      let totals = zip(parses, builds).map(+)
      let cachedTotals = zip(cachedReads, builds).map(+)
      print(
        "desktop database (\(label)): "
          + String(
            format:
              "parse %.1f ms or cached read %.1f ms, registry build %.1f ms; load %.1f ms parsed, %.1f ms cached (medians of %d; %d types in the registry)",
            median(parses) * 1000, median(cachedReads) * 1000, median(builds) * 1000,
            median(totals) * 1000, median(cachedTotals) * 1000, parses.count,
            registry.declarations.count))
    }

    let paths = try String(contentsOfFile: fileList, encoding: .utf8).split(separator: "\n")
      .map(String.init)
    let length = registry.contentReadLength
    var prefixes: [[UInt8]] = []
    prefixes.reserveCapacity(paths.count)
    var readBytes = 0
    let reading = seconds {
      for path in paths {
        let handle = FileHandle(forReadingAtPath: path)
        let data = (try? handle?.read(upToCount: length)) ?? nil
        try? handle?.close()
        let bytes = data.map { [UInt8]($0) } ?? []
        readBytes += bytes.count
        prefixes.append(bytes)
      }
    }
    let names = paths.map { ($0 as NSString).lastPathComponent }
    var byContent = 0
    var identifyTimes: [Double] = []
    var nameTimes: [Double] = []
    for _ in 0..<3 {
      byContent = 0
      identifyTimes.append(
        seconds {
          for (name, prefix) in zip(names, prefixes) {
            let result = registry.identification(
              forFileNamed: name, kind: .regularFile, content: prefix)
            if result.evidence != .name { byContent += 1 }
          }
        })
      nameTimes.append(
        seconds {
          for name in names { _ = registry.identify(fileName: name, kind: .regularFile) }
        })
    }
    print(
      String(
        format:
          "read first bytes of %d files (up to %d bytes each, %.1f MB): %.3f s",
        paths.count, length, Double(readBytes) / 1e6, reading))
    print(
      String(
        format:
          "identify %d files by name and content (bytes in memory): %.3f s, %.1f µs/file (%d decided by content or both; median of 3)",
        paths.count, median(identifyTimes), median(identifyTimes) * 1e6 / Double(paths.count),
        byContent))
    print(
      String(
        format: "identify %d files by name alone: %.3f s, %.1f µs/file (median of 3)",
        paths.count, median(nameTimes), median(nameTimes) * 1e6 / Double(paths.count)))
  }

  /// Depth-first search over declared parents, as a registry without a closure would do.
  static func walk(_ registry: TypeRegistry, from type: TypeIdentifier, to target: TypeIdentifier)
    -> Bool
  {
    var stack = [type]
    var seen: Set<TypeIdentifier> = []
    while let current = stack.popLast() {
      if current == target { return true }
      guard seen.insert(current).inserted else { continue }
      stack += registry.parents(of: current)
    }
    return false
  }
}
