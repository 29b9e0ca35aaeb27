#if !canImport(UniformTypeIdentifiers)
  // In the umbrella: URLResourceKey and URLResourceValues are corelibs Foundation's, which
  // the layers do not link.
  import FolioSystem
  public import Foundation
  public import UniformTypes

  extension URLResourceKey {
    /// The key of an item's content type, ``ContentTypedResourceValues/contentType``.
    public static let contentTypeKey = URLResourceKey(rawValue: "NSURLContentTypeKey")
  }

  /// The resource values `resourceValues(forKeys:)` gives for an array of keys, with the
  /// item's content type beside Foundation's values.
  ///
  /// Code written for Apple's platforms reads it as it reads `URLResourceValues`:
  ///
  /// ```swift
  /// let values = try url.resourceValues(forKeys: [.contentTypeKey, .isDirectoryKey])
  /// if values.contentType?.conforms(to: .package) == true, values.isDirectory == true { … }
  /// ```
  ///
  /// Corelibs Foundation's `URLResourceValues` keeps its values where no other module can
  /// add one, so Folio's `resourceValues(forKeys:)` for an array literal of keys returns this
  /// type, which forwards every other value to Foundation's. Code that names the type
  /// `URLResourceValues`, or passes a `Set` of keys, gets Foundation's values, which have
  /// no content type.
  @dynamicMemberLookup
  public struct ContentTypedResourceValues {
    /// Foundation's values for the other keys.
    public let resourceValues: URLResourceValues
    /// The item's content type, when `contentTypeKey` was asked for.
    public let contentType: UTType?

    /// Reads one of Foundation's values, such as `isDirectory` or `fileSize`.
    ///
    /// - Parameter key: The value's key path in `URLResourceValues`.
    public subscript<Value>(dynamicMember key: KeyPath<URLResourceValues, Value>) -> Value {
      resourceValues[keyPath: key]
    }
  }

  extension URL {
    /// An item's resource values, with its content type for
    /// `contentTypeKey`: what Apple's `resourceValues(forKeys:)`
    /// gives for that key.
    ///
    /// The content type is found as Apple's systems find it, from the item's kind and
    /// name: a folder is the declared package type its extension names, else
    /// `public.folder`; a file is the type its extension names (a dynamic type for an
    /// extension nobody declared), or `public.data` without one. Symbolic links are
    /// followed.
    ///
    /// - Parameter keys: The values to read.
    /// - Returns: The values.
    /// - Throws: `CocoaError(.fileReadNoSuchFile)` naming the URL when nothing is there;
    ///   what Foundation throws for the other keys.
    public func resourceValues(forKeys keys: [URLResourceKey]) throws
      -> ContentTypedResourceValues
    {
      let others = Set(keys).subtracting([.contentTypeKey])
      let values = try resourceValues(forKeys: others)
      guard keys.contains(.contentTypeKey) else {
        return ContentTypedResourceValues(resourceValues: values, contentType: nil)
      }
      return ContentTypedResourceValues(resourceValues: values, contentType: try itemType())
    }

    /// The type of the item at the URL, by its kind and name.
    private func itemType() throws -> UTType {
      let path = standardizedFileURL.path
      guard isFileURL, FileManager.default.fileExists(atPath: path) else {
        throw CocoaError(
          .fileReadNoSuchFile, userInfo: [NSURLErrorKey: self, NSFilePathErrorKey: path])
      }
      let ext = pathExtension
      if FileTree.isFolderFollowingLinks(path) {
        if !ext.isEmpty, let type = UTType(filenameExtension: ext, conformingTo: .package),
          !type.isDynamic
        {
          return type
        }
        return .folder
      }
      return ext.isEmpty ? .data : UTType(filenameExtension: ext) ?? .data
    }
  }
#endif
