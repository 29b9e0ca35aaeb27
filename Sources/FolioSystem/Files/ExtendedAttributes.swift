import Glibc

/// A file's extended attributes, read and written without following symbolic links.
///
/// Swift's `Glibc` module leaves out `<sys/xattr.h>`, so the calls are found at run
/// time (glibc has had them since 2.3). Names are passed as the bytes they are;
/// values as raw bytes. Every failure is a ``SystemError`` carrying `errno`:
/// `ENOTSUP` for a file system that keeps no attributes, `ENODATA` for a missing
/// one, `ERANGE` for a value larger than asked for, `EPERM` for a namespace the
/// process may not touch.
package enum ExtendedAttributes {
  private typealias PathList =
    @convention(c) (
      UnsafePointer<CChar>, UnsafeMutablePointer<CChar>?, Int
    ) -> Int
  private typealias PathGet =
    @convention(c) (
      UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int
    ) -> Int
  private typealias PathSet =
    @convention(c) (
      UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32
    ) -> Int32
  private typealias DescriptorSet =
    @convention(c) (
      Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32
    ) -> Int32

  nonisolated(unsafe) private static let library = dlopen(nil, RTLD_NOW)
  private static let listCall: PathList? = dlsym(library, "llistxattr").map {
    unsafeBitCast($0, to: PathList.self)
  }
  private static let getCall: PathGet? = dlsym(library, "lgetxattr").map {
    unsafeBitCast($0, to: PathGet.self)
  }
  private static let setCall: PathSet? = dlsym(library, "lsetxattr").map {
    unsafeBitCast($0, to: PathSet.self)
  }
  private static let descriptorSetCall: DescriptorSet? = dlsym(library, "fsetxattr").map {
    unsafeBitCast($0, to: DescriptorSet.self)
  }

  /// Linux's largest attribute value (`XATTR_SIZE_MAX`).
  package static let maximumValueSize = 64 * 1024
  /// Linux's longest attribute name (`XATTR_NAME_MAX`).
  package static let maximumNameLength = 255
  /// Linux's largest list of names (`XATTR_LIST_MAX`).
  package static let maximumListSize = 64 * 1024

  /// The names of a file's attributes, without following a symbolic link.
  ///
  /// One `llistxattr` call into a 4 KiB buffer for most files; a file without
  /// attributes costs that call alone. A longer list is asked for its size, then read.
  ///
  /// The corresponding C function is `llistxattr`.
  ///
  /// - Parameter path: The file.
  /// - Returns: The names, as bytes, in the order the file system lists them.
  /// - Throws: ``SystemError``; `ENOTSUP` when the file system keeps no attributes.
  package static func names(atPath path: String) throws(SystemError) -> [[UInt8]] {
    guard let listCall else { throw SystemError(errno: ENOTSUP) }
    // On the stack: most files have no attributes, and the walk calls this for each.
    let first = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buffer in
      let count = listCall(path, buffer.baseAddress!, buffer.count)
      return (count, count > 0 ? Self.split(UnsafeBufferPointer(rebasing: buffer[0..<count])) : [])
    }
    if first.0 >= 0 { return first.1 }
    guard errno == ERANGE else { throw SystemError.current }
    var capacity = 4096
    while true {
      // The list is longer than the buffer: ask for its size, within Linux's bound.
      let needed = listCall(path, nil, 0)
      guard needed >= 0 else { throw SystemError.current }
      if needed > maximumListSize { throw SystemError(errno: E2BIG) }
      capacity = max(needed, capacity * 2)
      var buffer = [CChar](repeating: 0, count: capacity)
      let count = listCall(path, &buffer, capacity)
      if count >= 0 {
        return buffer.withUnsafeBufferPointer {
          Self.split(UnsafeBufferPointer(rebasing: $0[0..<count]))
        }
      }
      guard errno == ERANGE else { throw SystemError.current }
    }
  }

  private static func split(_ list: UnsafeBufferPointer<CChar>) -> [[UInt8]] {
    list.split(separator: 0).map { $0.map { UInt8(bitPattern: $0) } }
  }

  /// One attribute's value, without following a symbolic link.
  ///
  /// The corresponding C function is `lgetxattr`.
  ///
  /// - Parameters:
  ///   - name: The attribute's full name (`user.origin`).
  ///   - path: The file.
  /// - Returns: The value's bytes.
  /// - Throws: ``SystemError``; `ENODATA` when the file has no such attribute.
  package static func value(of name: [UInt8], atPath path: String) throws(SystemError) -> [UInt8] {
    guard let getCall else { throw SystemError(errno: ENOTSUP) }
    let cName = name.map { CChar(bitPattern: $0) } + [0]
    var capacity = 1024
    while true {
      var buffer = [UInt8](repeating: 0, count: capacity)
      let count = getCall(path, cName, &buffer, capacity)
      if count >= 0 { return Array(buffer[0..<count]) }
      guard errno == ERANGE, capacity < maximumValueSize else { throw SystemError.current }
      capacity = maximumValueSize
    }
  }

  /// Sets one attribute on a file, without following a symbolic link.
  ///
  /// The corresponding C function is `lsetxattr`.
  ///
  /// - Parameters:
  ///   - name: The attribute's full name.
  ///   - value: Its bytes.
  ///   - path: The file.
  /// - Throws: ``SystemError``; `ENOTSUP` when the file system refuses the namespace.
  package static func set(_ name: [UInt8], to value: [UInt8], atPath path: String)
    throws(SystemError)
  {
    guard let setCall else { throw SystemError(errno: ENOTSUP) }
    let cName = name.map { CChar(bitPattern: $0) } + [0]
    let result = value.withUnsafeBytes { setCall(path, cName, $0.baseAddress, $0.count, 0) }
    if result != 0 { throw SystemError.current }
  }

  /// Sets one attribute on an open file or folder.
  ///
  /// The corresponding C function is `fsetxattr`.
  ///
  /// - Parameters:
  ///   - name: The attribute's full name.
  ///   - value: Its bytes.
  ///   - descriptor: The open file.
  /// - Throws: ``SystemError``; `ENOTSUP` when the file system refuses the namespace.
  package static func set(_ name: [UInt8], to value: [UInt8], descriptor: Int32)
    throws(SystemError)
  {
    guard let descriptorSetCall else { throw SystemError(errno: ENOTSUP) }
    let cName = name.map { CChar(bitPattern: $0) } + [0]
    let result = value.withUnsafeBytes {
      descriptorSetCall(descriptor, cName, $0.baseAddress, $0.count, 0)
    }
    if result != 0 { throw SystemError.current }
  }
}
