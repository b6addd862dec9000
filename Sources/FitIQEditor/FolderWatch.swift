import FitIQCore

#if canImport(Glibc)
    import Dispatch
    import Glibc
#endif

/// Watches an account's data folder for writes, through inotify on Linux: a file closed after
/// writing, moved in (an atomic save's rename), created or deleted there is a change. Where inotify
/// is not available, or the folder cannot be watched (it does not exist yet), there is no watch, and
/// the editor sees other processes' changes at its next sync.
public struct FolderCacheWatch: CacheWatch {
    private let folder: @Sendable (Account) -> String?

    /// Watches the folder `folder` gives for an account (`nil`: that account's cache is not in files).
    public init(folder: @escaping @Sendable (Account) -> String?) {
        self.folder = folder
    }

    public func changes(of account: Account) -> AsyncStream<Void>? {
        folder(account).flatMap(Self.changes(in:))
    }

    /// One element after each batch of changes in `path` until the reading task is cancelled (its
    /// descriptor is closed then); `nil` when it cannot be watched.
    public static func changes(in path: String) -> AsyncStream<Void>? {
        #if canImport(Glibc)
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
            guard inotify_add_watch(descriptor, path, mask) >= 0 else {
                close(descriptor)
                return nil
            }
            let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let queue = DispatchQueue(label: "fitiq.cache-watch")
            let source = ReadSource(DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue))
            source.value.setEventHandler {
                // Every event so far, in one read or a few: the reader compares revisions, not names.
                var buffer = [UInt8](repeating: 0, count: 4096)
                var changed = false
                while read(descriptor, &buffer, buffer.count) > 0 { changed = true }
                if changed { continuation.yield() }
            }
            source.value.setCancelHandler {
                close(descriptor)
                continuation.finish()
            }
            continuation.onTermination = { _ in source.value.cancel() }
            source.value.resume()
            return stream
        #else
            return nil
        #endif
    }
}

#if canImport(Glibc)
    /// A dispatch read source handed to the stream's termination handler; the source's methods may be
    /// called from any thread.
    private final class ReadSource: @unchecked Sendable {
        let value: any DispatchSourceRead
        init(_ value: any DispatchSourceRead) { self.value = value }
    }
#endif
