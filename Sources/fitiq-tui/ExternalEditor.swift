import FitIQCore
import FitIQLocalization
import FitIQTUI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Edits text in the user's own editor (`$VISUAL`, else `$EDITOR`): a temporary file of mode 0600,
/// removed afterwards; the editor runs on the terminal (the caller has given it back) and its exit
/// status decides whether the text counts.
struct ExternalEditor: Sendable {
    let environment: [String: String]

    func edit(_ text: String) -> ExternalEditOutcome {
        guard let command = ["VISUAL", "EDITOR"].compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else {
            return .failed(
                tr("No editor is set: set $VISUAL or $EDITOR (for example export EDITOR=nano) to write the bio in it."))
        }
        let folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/fitiq-bio-XXXXXX.txt".utf8CString)
        // mkstemps: the file is created with mode 0600, readable by this user only.
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemps(base, 4)
        }
        guard descriptor >= 0 else {
            return .failed(
                tr(
                    "Cannot create a temporary file in {folder}: {error}.",
                    ["folder": folder, "error": String(cString: strerror(errno))]))
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        StandardStreams.write(text + "\n", to: descriptor)
        close(descriptor)
        let status = run(command, path: path)
        guard status == 0 else {
            return .failed(
                tr(
                    "The editor ({command}) ended with status {status}; the bio is unchanged.",
                    ["command": command, "status": String(status)]))
        }
        guard let data = FileManager.default.contents(atPath: path), let edited = String(data: data, encoding: .utf8)
        else { return .failed(tr("The edited file could not be read as UTF-8 text; the bio is unchanged.")) }
        var result = edited
        while result.hasSuffix("\n") || result.hasSuffix("\r") { result.removeLast() }
        return .edited(result)
    }

    /// Runs `command` (which may hold arguments, e.g. `code -w`) on `path` through `/bin/sh`; returns its
    /// exit status (128 + the signal when killed).
    private func run(_ command: String, path: String) -> Int32 {
        let arguments = ["/bin/sh", "-c", command + " \"$1\"", "sh", path]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, envp) == 0 else { return 127 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return 127 }
        }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
