import FolioSystem
public import FoundationEssentials
import Glibc

extension ArchiveVerifier {
  /// Verifies an archive and compares it entry by entry with a tree, as GNU tar's
  /// `--compare` does: kinds, bytes (size and CRC-32), permission bits as `expand` would
  /// set them, symbolic link targets, modification times within the format's precision
  /// (whole seconds for tar, two seconds for zip), `user.` attributes, and what either has
  /// that the other has not.
  ///
  /// An archive whose entries sit in one top folder (as `folio pack` writes a package) is
  /// compared below that folder, as `expand` unwraps it.
  ///
  /// - Parameters:
  ///   - input: The archive.
  ///   - folder: The tree to compare with.
  ///   - policy: The rules and limits, as for an expansion.
  /// - Returns: The differences, sorted by path; empty when the archive is the tree.
  /// - Throws: ``PackagingError`` when the archive is damaged or refused, or the tree
  ///   cannot be read.
  public static func compare(
    _ input: ArchiveInput, against folder: URL, policy: ExpansionPolicy = .default
  ) throws -> [ArchiveDifference] {
    let source = try ArchiveOpener.open(input, policy: policy)
    let isZip = source is ZipEntrySource
    let target = ComparingTarget()
    var run = try ExpansionRun(judging: source, staging: target, policy: policy, reporter: nil)
    let top = try run.expandAll()
    let root = folder.standardizedFileURL.path
    var differences: [ArchiveDifference] = []
    var seen: Set<String> = []
    for (components, record) in target.records {
      var below = components[...]
      if let top {
        guard below.first == top else { continue }
        below = below.dropFirst()
        if below.isEmpty { continue }
      }
      let path = below.joined(separator: "/")
      // The folders above an entry are in the archive too, named or not.
      for end in below.indices { seen.insert(below[...end].joined(separator: "/")) }
      differences += compare(record, path: path, root: root, top: top, isZip: isZip)
    }
    differences += try extras(root: root, below: "", seen: seen)
    return differences.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
  }

  private static func compare(
    _ record: ComparingTarget.Record, path: String, root: String, top: String?, isZip: Bool
  ) -> [ArchiveDifference] {
    let full = root + "/" + path
    var info = stat()
    guard lstat(full, &info) == 0 else {
      return [ArchiveDifference(path: path, message: "in the archive, not in the folder")]
    }
    func difference(_ message: String) -> ArchiveDifference {
      ArchiveDifference(path: path, message: message)
    }
    let type = info.st_mode & S_IFMT
    var found: [ArchiveDifference] = []
    switch record.kind {
    case .directory:
      guard type == S_IFDIR else {
        return [difference("a folder in the archive, not in the folder")]
      }
    case .file, .hardLink:
      guard type == S_IFREG else { return [difference("a file in the archive, not in the folder")] }
      if case .file = record.kind {
        if Int64(info.st_size) != record.size {
          found.append(
            difference("size \(record.size) in the archive, \(info.st_size) in the folder"))
        } else if crc(of: full) != record.crc {
          found.append(difference("the bytes differ"))
        }
      }
    case .symbolicLink(let target):
      guard type == S_IFLNK else {
        return [difference("a symbolic link in the archive, not in the folder")]
      }
      var buffer = [CChar](repeating: 0, count: 4097)
      let count = readlink(full, &buffer, 4096)
      let actual = count >= 0 ? buffer[0..<count].map { UInt8(bitPattern: $0) } : []
      if actual != target {
        found.append(
          difference(
            "links to \(EntryName(bytes: target).display) in the archive, \(EntryName(bytes: actual).display) in the folder"
          ))
      }
    }
    if let permissions = record.permissions,
      UInt32(info.st_mode) & 0o755 != permissions & 0o755
    {
      found.append(
        difference(
          "mode \(String(permissions & 0o755, radix: 8)) in the archive, \(String(UInt32(info.st_mode) & 0o755, radix: 8)) in the folder (as expand sets it)"
        ))
    }
    if let time = record.time, type != S_IFLNK {
      let tolerance: Int64 = isZip ? 2 : 1
      if abs(Int64(info.st_mtim.tv_sec) - time.seconds) >= tolerance {
        found.append(
          difference(
            "modified at \(time.seconds) in the archive, \(info.st_mtim.tv_sec) in the folder (seconds since 1970)"
          ))
      }
    }
    if type == S_IFREG || type == S_IFDIR {
      let archived = record.attributes.filter { $0.name.hasPrefix("user.") }.sorted {
        $0.name < $1.name
      }
      let present =
        ((try? ExtendedAttribute.read(atPath: full, displayPath: full)) ?? []).filter {
          $0.name.hasPrefix("user.")
        }.sorted { $0.name < $1.name }
      if archived != present {
        let names = Set(archived.map(\.name)).symmetricDifference(present.map(\.name))
        let which = names.isEmpty ? "their values" : names.sorted().joined(separator: ", ")
        found.append(difference("the extended attributes differ (\(which))"))
      }
    }
    return found
  }

  private static func crc(of path: String) -> UInt32? {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var crc: UInt32 = 0
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      if count < 0 { return nil }
      if count == 0 { return crc }
      crc = LibDeflate.crc32(crc, UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
  }

  /// The paths of the tree the archive does not hold (a missing folder's contents once).
  private static func extras(root: String, below: String, seen: Set<String>) throws
    -> [ArchiveDifference]
  {
    let folder = below.isEmpty ? root : root + "/" + below
    let names: [String]
    do {
      names = try FolderListing.names(atPath: folder)
    } catch {
      throw PackagingError.system("cannot list folder '\(folder)'", errno: error.errno)
    }
    var found: [ArchiveDifference] = []
    for name in names {
      let path = below.isEmpty ? name : below + "/" + name
      guard seen.contains(path) else {
        found.append(ArchiveDifference(path: path, message: "in the folder, not in the archive"))
        continue
      }
      var info = stat()
      if lstat(root + "/" + path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
        found += try extras(root: root, below: path, seen: seen)
      }
    }
    return found
  }
}
