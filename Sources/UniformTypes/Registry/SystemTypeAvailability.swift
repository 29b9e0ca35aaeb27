/// The first versions of Apple's systems that declare a system type.
///
/// Most system types are declared by every version an app can still target; a few arrived
/// later (`net.daringfireball.markdown` in the 27 releases, `public.heic` with macOS 10.13 and
/// iOS 11). On an older system an app's import of such a type is what gives its files a type,
/// so whether the import is ignored depends on the app's deployment target. The versions come
/// from the `first_macos` and `first_ios` columns of `system-types.tsv`, which name the Apple
/// documentation they rest on (the availability of the type's constant).
package struct SystemTypeAvailability: Sendable, Hashable {
  /// A version such as `10.13` or `27.0`, compared part by part (missing parts are zero).
  package struct Version: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let parts: [Int]

    /// Parses `10.13`, `11`, `15.2.1`; `nil` for anything else, such as a build variable.
    package init?(_ text: String) {
      let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
      guard !pieces.isEmpty, pieces.count <= 4 else { return nil }
      var parts: [Int] = []
      for piece in pieces {
        guard !piece.isEmpty, piece.utf8.count <= 6,
          piece.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
          let number = Int(piece)
        else { return nil }
        parts.append(number)
      }
      self.parts = parts
    }

    package static func < (left: Version, right: Version) -> Bool {
      for index in 0..<max(left.parts.count, right.parts.count) {
        let a = index < left.parts.count ? left.parts[index] : 0
        let b = index < right.parts.count ? right.parts[index] : 0
        if a != b { return a < b }
      }
      return false
    }

    package static func == (left: Version, right: Version) -> Bool {
      !(left < right) && !(right < left)
    }

    package func hash(into hasher: inout Hasher) {
      var trimmed = parts
      while trimmed.count > 1, trimmed.last == 0 { trimmed.removeLast() }
      hasher.combine(trimmed)
    }

    package var description: String {
      parts.map(String.init).joined(separator: ".")
    }
  }

  /// The platforms a deployment target names.
  package enum Platform: String, Sendable, Hashable {
    case macOS
    case iOS
  }

  /// The first macOS version that declares the type, when Apple documents one.
  package let macOS: Version?
  /// The first iOS version that declares the type, when Apple documents one.
  package let iOS: Version?

  /// The first version of a platform that declares the type.
  package func firstVersion(on platform: Platform) -> Version? {
    switch platform {
    case .macOS: macOS
    case .iOS: iOS
    }
  }

  /// The first versions for a system type, or `nil` when every version an app can target
  /// declares it (or Apple documents no version).
  package static func of(_ identifier: TypeIdentifier) -> SystemTypeAvailability? {
    table[identifier.key]
  }

  /// ``SystemTypeTable/availabilityRows`` by folded identifier.
  private static let table: [String: SystemTypeAvailability] = {
    var table: [String: SystemTypeAvailability] = [:]
    for line in SystemTypeTable.availabilityRows.split(separator: "\n") {
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard columns.count == 3 else { continue }
      table[TypeIdentifier(columns[0]).key] = SystemTypeAvailability(
        macOS: Version(columns[1]), iOS: Version(columns[2]))
    }
    return table
  }()
}
