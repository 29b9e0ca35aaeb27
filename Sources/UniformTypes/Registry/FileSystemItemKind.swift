/// What kind of file-system item a name belongs to, for ``TypeRegistry/identify(fileName:kind:)``.
public enum FileSystemItemKind: String, Sendable, Hashable, CaseIterable {
  /// A regular file.
  case regularFile
  /// A directory.
  case directory
  /// A symbolic link (not followed).
  case symbolicLink
  /// A FIFO.
  case namedPipe
  /// A Unix-domain socket.
  case socket
  /// A character device.
  case characterDevice
  /// A block device.
  case blockDevice
}
