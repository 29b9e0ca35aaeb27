import FolioSystem
import Glibc

/// What `fstatat` (and, when asked, `listxattrat`) says of the second half of a large
/// folder's names, asked by a helper thread while the walk goes through the first half.
///
/// Looking names up is most of what the kernel does for a walk that reads no file (a
/// pack that reuses an earlier archive's entries), and one thread asks one name at a
/// time; here a helper thread asks the second half of the names while the walking thread
/// looks up the first half itself, as it reaches them, so its entries are handed on at
/// once. A name that cannot be looked up keeps its `errno`, reported when the walk reaches
/// it, as if it had asked then.
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
  /// The first name the helper asks about.
  private let helperStart: Int
  /// One answer a name from ``helperStart`` on, written by the helper, read only once it
  /// is done.
  private let answers: UnsafeMutableBufferPointer<Answer>
  /// The helper, until it is waited for.
  private var helper: BackgroundWork<Void>?

  /// Starts asking the kernel about the second half of a folder's names on a thread of
  /// its own.
  ///
  /// - Parameters:
  ///   - folder: The open folder, kept open until ``waitForHelper()`` returns.
  ///   - names: Its names.
  ///   - listingAttributes: Whether to ask folders and regular files for the length of
  ///     their extended attribute names' list too.
  init(folder: Int32, names: FolderNames, listingAttributes: Bool) {
    self.folder = folder
    self.names = names
    self.listingAttributes = listingAttributes
    let count = names.count
    helperStart = count / 2
    answers = .allocate(capacity: count - helperStart)
    helper = BackgroundWork(inBackground: true) { [self] in ask(helperStart..<count) }
  }

  deinit {
    helper?.wait()
    answers.deallocate()
  }

  /// Waits until the helper has asked about all its names: before the folder is closed.
  func waitForHelper() {
    if let helper {
      helper.wait()
      self.helper = nil
    }
  }

  /// The helper's answers for the name at `index`, once it is done; `nil` for a name of the
  /// first half, which the walk looks up itself.
  subscript(index: Int) -> Answer? {
    guard index >= helperStart else { return nil }
    waitForHelper()
    return answers[index - helperStart]
  }

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
      (answers.baseAddress! + index - helperStart).initialize(to: answer)
    }
  }
}
