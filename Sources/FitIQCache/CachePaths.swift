import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where fitiq-tui keeps its files, following the XDG base directory specification.
///
/// Data (the account caches) lives under `$XDG_DATA_HOME/fitiq/`, state (sessions, locks, the log and
/// the current account) under `$XDG_STATE_HOME/fitiq/`, configuration under `$XDG_CONFIG_HOME/fitiq/`.
/// Each account has one folder per kind, named after its server and user id.
public struct CachePaths: Sendable, Equatable {
    /// `$XDG_DATA_HOME/fitiq/`.
    public let dataDirectory: URL
    /// `$XDG_STATE_HOME/fitiq/`.
    public let stateDirectory: URL
    /// `$XDG_CONFIG_HOME/fitiq/`.
    public let configDirectory: URL

    /// Resolves the folders from `environment` (the composition root passes `ProcessInfo`'s); a
    /// relative or empty `XDG_*` value is ignored, as the specification requires.
    public init(environment: [String: String], home: URL) {
        func folder(_ variable: String, default relative: String) -> URL {
            let base =
                environment[variable].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
                ?? home.appendingPathComponent(relative, isDirectory: true)
            return base.appendingPathComponent("fitiq", isDirectory: true)
        }
        self.init(
            dataDirectory: folder("XDG_DATA_HOME", default: ".local/share"),
            stateDirectory: folder("XDG_STATE_HOME", default: ".local/state"),
            configDirectory: folder("XDG_CONFIG_HOME", default: ".config"))
    }

    /// Uses the given folders as they are.
    public init(dataDirectory: URL, stateDirectory: URL, configDirectory: URL) {
        self.dataDirectory = dataDirectory.standardizedFileURL
        self.stateDirectory = stateDirectory.standardizedFileURL
        self.configDirectory = configDirectory.standardizedFileURL
    }

    /// Puts the three folders under one root (`root/data`, `root/state`, `root/config`), for tests and demos.
    public init(root: URL) {
        self.init(
            dataDirectory: root.appendingPathComponent("data", isDirectory: true),
            stateDirectory: root.appendingPathComponent("state", isDirectory: true),
            configDirectory: root.appendingPathComponent("config", isDirectory: true))
    }

    /// `$XDG_CONFIG_HOME/fitiq/config.json`.
    public var configFile: URL { configDirectory.appendingPathComponent("config.json", isDirectory: false) }
    /// `$XDG_STATE_HOME/fitiq/fitiq-tui.log`.
    public var logFile: URL { stateDirectory.appendingPathComponent("fitiq-tui.log", isDirectory: false) }
    /// `$XDG_STATE_HOME/fitiq/current.json`: which account is current.
    public var currentAccountFile: URL { stateDirectory.appendingPathComponent("current.json", isDirectory: false) }
    /// The lock guarding `current.json`.
    public var currentAccountLockFile: URL { stateDirectory.appendingPathComponent("current.lock", isDirectory: false) }

    /// `<data>/accounts/<server-slug>/<user>/`: the account's cached profile, outbox and history.
    public func accountDataDirectory(for account: AccountKey) -> URL {
        accountFolder(in: dataDirectory, for: account)
    }

    /// `<state>/accounts/<server-slug>/<user>/`: the account's session and lock.
    public func accountStateDirectory(for account: AccountKey) -> URL {
        accountFolder(in: stateDirectory, for: account)
    }

    /// `<data>/accounts/<server-slug>/<user>/account.json`.
    public func profileFile(for account: AccountKey) -> URL {
        accountDataDirectory(for: account).appendingPathComponent(JSONFileProfileStore.fileName, isDirectory: false)
    }

    /// `<state>/accounts/<server-slug>/<user>/session.json`.
    public func sessionFile(for account: AccountKey) -> URL {
        accountStateDirectory(for: account).appendingPathComponent(JSONFileSessionStore.fileName, isDirectory: false)
    }

    /// `<state>/accounts/<server-slug>/<user>/lock`.
    public func lockFile(for account: AccountKey) -> URL {
        accountStateDirectory(for: account).appendingPathComponent("lock", isDirectory: false)
    }

    private func accountFolder(in base: URL, for account: AccountKey) -> URL {
        base.appendingPathComponent("accounts", isDirectory: true)
            .appendingPathComponent(PathName.serverSlug(account.server), isDirectory: true)
            .appendingPathComponent(PathName.component(account.userId), isDirectory: true)
    }
}
