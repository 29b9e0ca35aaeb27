// Throughput of Folio's property list readers beside Foundation's PropertyListSerialization.
//
// Built by scripts/bench/plist.sh together with the PropertyLists sources (swiftc -O,
// whole module); not part of `swift build`. Usage: plist-bench CORPUS_DIR [ROUNDS].
import Foundation

@main
enum PropertyListBench {
  static func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count >= 2 else {
      FileHandle.standardError.write(Data("usage: plist-bench CORPUS_DIR [ROUNDS]\n".utf8))
      exit(64)
    }
    let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 100 : 100
    // An optional third argument runs one reader only (for profiling): folio-xml, foundation-binary…
    let only = arguments.count > 3 ? arguments[3] : nil
    let folder = URL(fileURLWithPath: arguments[1])
    var xml: [Data] = []
    var skipped: [String] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    where name.hasSuffix(".plist") {
      let data = try Data(contentsOf: folder.appendingPathComponent(name))
      // Only files both readers accept, so both do the same work.
      if (try? PropertyListReader.read(data, file: name)) != nil,
        (try? PropertyListSerialization.propertyList(from: data, format: nil)) != nil
      {
        xml.append(data)
      } else {
        skipped.append(name)
      }
    }
    let binary = try xml.map {
      try PropertyListWriter.data(for: PropertyListReader.read($0, file: "x").root, format: .binary)
    }
    print(
      "corpus: \(xml.count) files (\(skipped.count) skipped: \(skipped.joined(separator: ", ")))")
    print("rounds: \(rounds)")
    print("")
    print("format  reader                      MB/s     seconds")
    for (format, inputs) in [("xml", xml), ("binary", binary)] {
      let bytes = inputs.reduce(0) { $0 + $1.count }
      if only == nil || only == "folio-\(format)" {
        let folio = measure(rounds: rounds) {
          for data in inputs { _ = try PropertyListReader.read(data, file: "bench") }
        }
        report(format, "Folio (with positions)", bytes: bytes * rounds, seconds: folio)
      }
      if only == nil || only == "foundation-\(format)" {
        let foundation = measure(rounds: rounds) {
          for data in inputs {
            _ = try PropertyListSerialization.propertyList(from: data, format: nil)
          }
        }
        report(format, "Foundation", bytes: bytes * rounds, seconds: foundation)
      }
    }
  }

  static func measure(rounds: Int, _ body: () throws -> Void) -> Double {
    // One warm-up round, then the timed ones.
    try? body()
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<rounds { try? body() }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  static func report(_ format: String, _ reader: String, bytes: Int, seconds: Double) {
    let rate = Double(bytes) / 1_048_576 / seconds
    let columns = [
      format.padding(toLength: 8, withPad: " ", startingAt: 0),
      reader.padding(toLength: 24, withPad: " ", startingAt: 0),
      String(format: "%8.1f", rate), String(format: "%11.3f", seconds),
    ]
    print(columns.joined())
  }
}
