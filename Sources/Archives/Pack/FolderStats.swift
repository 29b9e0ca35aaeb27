import FolioSystem
import Glibc

/// What `fstatat` (and, when asked, `listxattrat`) says of each name of a large folder,
/// asked by two threads at once before the walk goes through the folder.
///
/// Looking names up is most of what the kernel does for a walk that reads no file (a
/// pack that reuses an earlier archive's entries), and one thread asks one name at a
/// time; here a helper thread asks the second half of the names while the walking thread
/// asks the first. A name that cannot be looked up keeps its `errno`, reported when the
/// walk reaches it, as if it had asked then.
final class FolderStats: @unchecked Sendable {
  /// One name's answers.
  struct Answer {
    var info: stat
    /// 0, or the `errno` of a failed `fstatat`.
    var errorNumber: Int32
    /// For a folder or a regular file, when asked and known.
    var attributeListLength: Int?
  }

  /// Folders with fewer names are walked one name at a time: a thread costs more than
  /// half their lookups.
  static let parallelThreshold = 1024

  private let folder: Int32
  private let names: FolderNames
  private let listingAttributes: Bool
  /// One answer a name, each written by one thread, read only once both are done.
  private let answers: UnsafeMutableBufferPointer<Answer>

  /// Asks the kernel about every name of a folder, on two threads.
  ///
  /// - Parameters:
  ///   - folder: The open folder.
  ///   - names: Its names.
  ///   - listingAttributes: Whether to ask folders and regular files for the length of
  ///     their extended attribute names' list too.
  init(folder: Int32, names: FolderNames, listingAttributes: Bool) {
    self.folder = folder
    self.names = names
    self.listingAttributes = listingAttributes
    let count = names.count
    answers = .allocate(capacity: count)
    let half = count / 2
    let helper = BackgroundWork(inBackground: true) { [self] in ask(half..<count) }
    ask(0..<half)
    helper.wait()
  }

  deinit { answers.deallocate() }

  /// The answers for the name at `index`.
  subscript(index: Int) -> Answer { answers[index] }

  private func ask(_ range: Range<Int>) {
    for index in range {
      let (_, name) = names[index]
      var info = stat()
      var answer = Answer(info: info, errorNumber: 0, attributeListLength: nil)
      if fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
        answer.info = info
        let type = info.st_mode & S_IFMT
        if listingAttributes, type == S_IFDIR || type == S_IFREG {
          answer.attributeListLength = ExtendedAttributes.listLength(in: folder, name: name)
        }
      } else {
        answer.errorNumber = errno
      }
      (answers.baseAddress! + index).initialize(to: answer)
    }
  }
}
