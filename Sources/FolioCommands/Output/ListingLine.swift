import Archives
import FoundationEssentials
import Glibc

/// One line of `folio list`, as `bsdtar -tv` prints it: mode, links, owner,
/// group, size, date in UTC, name, and `-> target` for a link.
///
/// ```
/// -rw-r--r--  0 alice    staff        1234 Nov 14  2023 Notebook/metadata.json
/// lrwxr-xr-x  0 alice    staff           0 Nov 14  2023 Notebook/latest -> pages/a.txt
/// ```
struct ListingLine {
  /// The current time, deciding between `HH:MM` (within six months) and the year.
  var now: Date

  /// The line for an entry, without a line break; names are escaped.
  ///
  /// - Parameter entry: The entry.
  /// - Returns: The line.
  func render(_ entry: ArchiveEntryInfo) -> String {
    var mode = String(entry.kind.letter == "h" ? "-" : entry.kind.letter)
    let bits = entry.permissions
    let letters: [(UInt32, Character)] = [
      (0o400, "r"), (0o200, "w"), (0o100, "x"), (0o040, "r"), (0o020, "w"), (0o010, "x"),
      (0o004, "r"), (0o002, "w"), (0o001, "x"),
    ]
    for (index, (bit, letter)) in letters.enumerated() {
      var character: Character = bits & bit != 0 ? letter : "-"
      if index == 2 && bits & 0o4000 != 0 { character = bits & bit != 0 ? "s" : "S" }
      if index == 5 && bits & 0o2000 != 0 { character = bits & bit != 0 ? "s" : "S" }
      if index == 8 && bits & 0o1000 != 0 { character = bits & bit != 0 ? "t" : "T" }
      mode.append(character)
    }
    let owner = entry.ownerName.flatMap { $0.isEmpty ? nil : $0 } ?? String(entry.ownerID)
    let group = entry.groupName.flatMap { $0.isEmpty ? nil : $0 } ?? String(entry.groupID)
    let size = entry.kind == .file ? (entry.size ?? 0) : 0
    let date = entry.modificationTime.map(date) ?? "            "
    var name = EntryName.escapeForListing(entry.name)
    if let target = entry.linkTarget {
      let escaped = EntryName.escapeForListing(target)
      name += entry.kind == .hardLink ? " link to \(escaped)" : " -> \(escaped)"
    }
    return
      "\(mode)  0 \(Self.pad(owner, 8)) \(Self.pad(group, 8)) \(Self.padLeft(String(size), 8)) \(date) \(name)"
  }

  /// `Nov 14 22:13` within six months of now, `Nov 14  2023` otherwise, in UTC;
  /// a time no calendar date can show (past year 2^31) as its seconds, `@109626219…`.
  ///
  /// - Parameter seconds: Seconds since 1970.
  /// - Returns: Twelve columns (more for the raw seconds).
  func date(_ seconds: Int64) -> String {
    var time = time_t(seconds)
    var parts = tm()
    guard gmtime_r(&time, &parts) != nil else { return "@\(seconds)" }
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    let month = months[Int(parts.tm_mon) % 12]
    let day = Self.padLeft(String(parts.tm_mday), 2)
    let age = now.timeIntervalSince1970 - Double(seconds)
    if age >= 0 && age < 180 * 86_400 {
      let hour = parts.tm_hour < 10 ? "0\(parts.tm_hour)" : "\(parts.tm_hour)"
      let minute = parts.tm_min < 10 ? "0\(parts.tm_min)" : "\(parts.tm_min)"
      return "\(month) \(day) \(hour):\(minute)"
    }
    return "\(month) \(day) \(Self.padLeft(String(Int64(parts.tm_year) + 1900), 5))"
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  private static func padLeft(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
  }
}
