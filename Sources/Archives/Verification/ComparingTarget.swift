import FolioSystem
import FoundationEssentials
import Glibc

/// An expansion target that writes nothing and remembers, per entry, what it would have
/// written (kind, mode, time, size and CRC-32 of the data, link target, attributes), to be
/// compared with a tree once the archive's top folder is known.
final class ComparingTarget: ExpansionTarget {
  enum Kind: Equatable {
    case file, directory, symbolicLink([UInt8]), hardLink([String])
  }

  struct Record {
    var kind: Kind
    var permissions: UInt32?
    var time: StagingFolder.Time?
    var size: Int64 = 0
    var crc: UInt32 = 0
    var attributes: [ExtendedAttribute] = []
  }

  final class File: ExpansionTargetFile {
    private unowned let target: ComparingTarget
    private let path: [String]
    private var size: Int64 = 0
    private var crc: UInt32 = 0

    init(target: ComparingTarget, path: [String]) {
      self.target = target
      self.path = path
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
      try extend(to: offset)
      // Blocks come in order; a block that goes back over data is not one a tar holds.
      guard offset == size else { return }
      crc = LibDeflate.crc32(crc, bytes)
      size += Int64(bytes.count)
    }

    func extend(to length: Int64) throws {
      guard length > size else { return }
      let zeros = [UInt8](repeating: 0, count: 64 * 1024)
      while size < length {
        let count = Int(min(Int64(zeros.count), length - size))
        crc = zeros.withUnsafeBytes {
          LibDeflate.crc32(crc, UnsafeRawBufferPointer(rebasing: $0[0..<count]))
        }
        size += Int64(count)
      }
    }

    func finish(
      permissions: UInt32, time: StagingFolder.Time?, attributes: [ExtendedAttribute]
    ) throws {
      target.records[path] = Record(
        kind: .file, permissions: permissions, time: time, size: size, crc: crc,
        attributes: attributes)
    }
  }

  var records: [[String]: Record] = [:]

  func makeDirectory(_ path: RelativePath, permissions: UInt32, time: StagingFolder.Time?) throws {
    records[path.components] = Record(kind: .directory, permissions: permissions, time: time)
  }
  func setRootAttributes(permissions: UInt32, time: StagingFolder.Time?) {}
  func createFile(_ path: RelativePath) throws -> File {
    File(target: self, path: path.components)
  }
  func link(_ path: RelativePath, to target: RelativePath) throws {
    records[path.components] = Record(kind: .hardLink(target.components))
  }
  func addSymbolicLink(_ path: RelativePath, target: [UInt8], time: StagingFolder.Time?) {
    records[path.components] = Record(kind: .symbolicLink(target), time: time)
  }
  func setExtendedAttributes(_ attributes: [ExtendedAttribute], ofDirectory path: RelativePath) {
    records[path.components]?.attributes = attributes
  }
  func setExtendedAttributes(_ attributes: [ExtendedAttribute], ofExisting path: RelativePath)
    -> Bool
  {
    guard records[path.components] != nil else { return false }
    records[path.components]?.attributes = attributes
    return true
  }
  var attributeWarnings: [ArchiveWarning] { [] }
}
