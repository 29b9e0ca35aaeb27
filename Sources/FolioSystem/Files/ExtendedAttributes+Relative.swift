import Glibc

extension ExtendedAttributes {
  /// `syscall(2)` as called here: a number, then `listxattrat`'s five arguments.
  private typealias ListAtCall =
    @convention(c) (
      Int, Int32, UnsafePointer<CChar>, UInt32, UnsafeMutablePointer<CChar>?, Int
    ) -> Int

  /// `listxattrat`'s number, the same on x86-64 and arm64 (Linux 6.13); glibc 2.36 has no
  /// wrapper for it.
  private static let listAtNumber: Int? = {
    #if arch(x86_64) || arch(arm64)
      return 465
    #else
      return nil
    #endif
  }()

  /// glibc's `syscall`, found at run time like the other calls here.
  ///
  /// It is variadic, which Swift does not import; glibc writes it in assembly that only
  /// moves its integer arguments into the kernel's registers, so a fixed-argument pointer
  /// calls it alike.
  private static let listAtCall: ListAtCall? = dlsym(dlopen(nil, RTLD_NOW), "syscall").map {
    unsafeBitCast($0, to: ListAtCall.self)
  }

  /// How long the list of a file's attribute names is (0: it has none), the file named
  /// in an open folder, without following a symbolic link.
  ///
  /// One `listxattrat` call, in which the kernel looks up the name in the folder alone,
  /// where `llistxattr` walks the whole path: a pack asks this of every file it meets,
  /// right after its `fstatat`, and most files have no attributes.
  ///
  /// - Parameters:
  ///   - folder: An open folder.
  ///   - name: The file's name in it (or a path below it), not empty.
  /// - Returns: The length, or `nil` when the kernel cannot tell (before Linux 6.13, or
  ///   any failure): ask by path then.
  package static func listLength(in folder: Int32, name: UnsafePointer<CChar>) -> Int? {
    guard let listAtCall, let listAtNumber, name.pointee != 0 else { return nil }
    let length = listAtCall(listAtNumber, folder, name, UInt32(AT_SYMLINK_NOFOLLOW), nil, 0)
    return length >= 0 ? length : nil
  }
}
