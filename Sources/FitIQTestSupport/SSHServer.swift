import FitIQTestBasics
import Foundation

/// A throw-away OpenSSH server for one test: `/usr/sbin/sshd` listening on a free loopback port, run
/// as the current user, with its own host key, client key, `authorized_keys` and `sshd_config` in a
/// fresh temporary folder, removed when it stops.
///
/// The configuration accepts no environment from clients (no `AcceptEnv`), so a client's `LANG` and
/// `LC_*` never arrive; it reads nothing of the user's (`PermitUserRC no`, no PAM, no `Include`).
///
/// As root, sshd will not start without its privilege separation directory (`/run/sshd`) and it
/// records every login in utmp, wtmp, btmp and lastlog. So that no system file is made or changed, a
/// root sshd runs in a private mount namespace (`unshare --mount`) where `/run` and `/var/log` are
/// fresh tmpfs mounts holding only `/run/sshd` and empty login records, seen by nothing outside and
/// gone when the namespace's last process ends. As anyone else sshd needs neither and runs as it is
/// (its login records are not writable then); its terminal sessions then rely on the usual `devpts`
/// mount, which puts new terminals in group `tty` (a sshd that is not root cannot change that).
public struct SSHServer: Sendable {
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Keys, configuration, known hosts, the pid file and sshd's log.
    public let folder: URL
    public let port: Int
    /// sshd's listening process (a child of the test process).
    public var pid: pid_t { sshd.pid }
    public let sshd: ChildProcess
    /// Readable once sshd has ended (a pidfd): awaited with ``readiness`` in one `poll`.
    public let ended: Int32
    /// Where sshd says it listens (`READY=1`, its systemd readiness message; `NOTIFY_SOCKET`).
    public let readiness: Int32
    /// Who logs in: the user running the tests.
    public let user: String

    public var clientKey: URL { folder.appendingPathComponent("client_key") }
    public var knownHosts: URL { folder.appendingPathComponent("known_hosts") }
    /// sshd's own log (`-e`, level VERBOSE): logins, sessions, and why one was refused.
    public var log: URL { folder.appendingPathComponent("sshd.log") }

    /// The sshd log so far.
    public func logText() -> String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// Runs `body` with a server started by ``start()``, stopped afterwards whatever happens.
    public static func with<T: Sendable>(_ body: (SSHServer) async throws -> T) async throws -> T {
        let server = try await start()
        defer { server.stop() }
        return try await body(server)
    }

    /// Makes the keys and starts sshd; returns once it listens. A port is found free (`choosePort`),
    /// then given to sshd; if something else takes it in between, sshd fails to bind and another
    /// port is chosen.
    public static func start(choosingPortsWith choosePort: () throws -> Int = Loopback.freePort) async throws
        -> SSHServer
    {
        for program in ["/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/ssh-keygen"]
        where !FileManager.default.isExecutableFile(atPath: program) {
            throw Failed(description: "\(program) is missing: install openssh-server and openssh-client (make deps)")
        }
        let folder = try TemporaryFolder("fitiq-sshd").url
        do {
            for key in ["host_key", "client_key"] {
                try makeKey(folder.appendingPathComponent(key))
            }
            try FileManager.default.copyItem(
                at: folder.appendingPathComponent("client_key.pub"),
                to: folder.appendingPathComponent("authorized_keys"))
            let user = try currentUser()
            var refused: [String] = []
            for _ in 0..<5 {
                let port = try choosePort()
                let server = try launch(folder: folder, port: port, user: user)
                switch try await ProcessTree.offThePool({ Result { try server.waitUntilListening() } }).get() {
                case .listening: return server
                case .portTaken(let log): refused.append("port \(port): \(log)")
                }
            }
            throw Failed(description: "sshd found no free port in 5 tries:\n\(refused.joined(separator: "\n"))")
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Ends every session, then sshd itself; reaps it and removes the folder.
    public func stop() {
        let sessions = ProcessTree.descendants(of: pid)
        sshd.signal(SIGTERM)
        // sshd leaves running sessions alone when it ends: end them too (they hang up as a
        // dropped connection would).
        for session in sessions { kill(session, SIGHUP) }
        ProcessTree.reap([pid], within: .seconds(10))
        close(readiness)
        close(ended)
        ProcessTree.reap(sessions, within: .seconds(10))
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: The client

    /// The environment of every `ssh`: a path and, for a terminal, its type; no `LANG`, no `LC_*`.
    public func clientEnvironment(term: String? = nil) -> [String: String] {
        var environment = ["PATH": "/usr/bin:/bin"]
        environment["TERM"] = term
        return environment
    }

    /// The options of every `ssh` to this server: no configuration file (Debian's sends `LANG` and
    /// `LC_*`), no variable sent, only this server's client key, no agent, its own known-hosts file
    /// (the host key accepted on first sight), never a question, only errors on standard error.
    public func clientArguments(terminal: Bool) -> [String] {
        let options = [
            "BatchMode=yes", "StrictHostKeyChecking=accept-new", "UserKnownHostsFile=\(knownHosts.path)",
            "GlobalKnownHostsFile=/dev/null", "IdentitiesOnly=yes", "IdentityAgent=none", "SendEnv=-*",
            "ControlMaster=no", "ControlPath=none", "ForwardAgent=no", "ForwardX11=no", "LogLevel=ERROR",
            "ConnectTimeout=30",
        ]
        return ["-F", "/dev/null", "-i", clientKey.path] + options.flatMap { ["-o", $0] }
            + (terminal ? ["-tt"] : ["-T"]) + ["-p", "\(port)", "-l", user, "127.0.0.1"]
    }

    /// A shell command line (for a tmux pane) that runs `remoteCommand` on this server through
    /// `ssh -tt`, in a terminal of type `term`, with nothing but ``clientEnvironment(term:)``; then
    /// prints `ssh exited with status N` and keeps the pane open until tmux is stopped. (A pane
    /// whose command ends loses its top row: tmux scrolls the screen up a line to write "Pane is
    /// dead" at the bottom.)
    public func terminalCommand(_ remoteCommand: String, term: String) -> String {
        let environment = clientEnvironment(term: term).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let words = ["env", "-i"] + environment + ["/usr/bin/ssh"] + clientArguments(terminal: true)
        let ssh = (words + ["--", remoteCommand]).map(shellQuote).joined(separator: " ")
        return "\(ssh); echo \"ssh exited with status $?\"; exec sleep infinity"
    }

    /// Runs `remoteCommand` (a shell command line) on this server without a terminal, `input` on its
    /// standard input; returns what came back and the remote exit status (255: ssh itself failed).
    public func run(_ remoteCommand: String, input: String? = nil) async throws -> CommandRunner.Result {
        let ssh = CommandRunner(executable: URL(fileURLWithPath: "/usr/bin/ssh"), environment: clientEnvironment())
        let result = try await ssh.run(clientArguments(terminal: false) + ["--", remoteCommand], input: input)
        if result.status == 255 {
            throw Failed(description: "ssh failed: \(result)\nsshd's log:\n\(logText())")
        }
        return result
    }

    // MARK: Starting

    private enum Start {
        case listening
        case portTaken(log: String)
    }

    private static func launch(folder: URL, port: Int, user: String) throws -> SSHServer {
        let configuration = folder.appendingPathComponent("sshd_config")
        func path(_ name: String) -> String { "\"\(folder.appendingPathComponent(name).path)\"" }
        // Under `make sanitize`, the sessions' programs get the run's sanitizer options (SetEnv).
        let sanitizerSetting =
            BuiltProducts.sanitizerOptions.isEmpty
            ? ""
            : "SetEnv "
                + BuiltProducts.sanitizerOptions.sorted { $0.key < $1.key }
                .map { "\($0.key)=\"\($0.value)\"" }.joined(separator: " ")
        let settings = """
            # A throw-away sshd for one end-to-end test (Sources/FitIQTestSupport/SSHServer.swift).
            ListenAddress 127.0.0.1:\(port)
            HostKey \(path("host_key"))
            PidFile \(path("sshd.pid"))
            AuthorizedKeysFile \(path("authorized_keys"))
            AllowUsers \(user)
            PermitRootLogin prohibit-password
            PubkeyAuthentication yes
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            HostbasedAuthentication no
            UsePAM no
            StrictModes no
            PermitUserEnvironment no
            PermitUserRC no
            PrintMotd no
            PrintLastLog no
            UseDNS no
            X11Forwarding no
            AllowAgentForwarding no
            AllowTcpForwarding no
            LogLevel VERBOSE
            \(sanitizerSetting)
            """
        try settings.write(to: configuration, atomically: true, encoding: .utf8)
        let sshd = ["/usr/sbin/sshd", "-D", "-e", "-f", configuration.path]
        let (program, arguments): (String, [String])
        if geteuid() == 0 {
            // `mount -n`: mount's own record (/run/mount/utab) is not written either. The empty login
            // records take sshd's writes (without them it tells each terminal session it could not
            // find lastlog). `exec` keeps the process id: the one started here is sshd.
            let script = """
                mount -n -t tmpfs -o mode=0755 fitiq-e2e-run /run && mkdir -m 0755 /run/sshd \
                && mount -n -t tmpfs -o mode=0755 fitiq-e2e-log /var/log \
                && : > /run/utmp && : > /var/log/wtmp && : > /var/log/btmp && : > /var/log/lastlog \
                && exec \(sshd.map(shellQuote).joined(separator: " "))
                """
            (program, arguments) = (
                "/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script]
            )
        } else {
            (program, arguments) = (sshd[0], Array(sshd.dropFirst()))
        }
        let notify = folder.appendingPathComponent("notify-\(port).sock")
        let readiness = try datagramSocket(boundTo: notify.path)
        do {
            let sshd = try ChildProcess(
                [program] + arguments,
                environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "NOTIFY_SOCKET": notify.path],
                output: .file(folder.appendingPathComponent("sshd.log")))
            guard let ended = ProcessTree.pidfd(sshd.pid) else {
                throw Failed(description: "sshd ended at once, or this kernel has no pidfd_open")
            }
            return SSHServer(folder: folder, port: port, sshd: sshd, ended: ended, readiness: readiness, user: user)
        } catch {
            close(readiness)
            throw error
        }
    }

    /// Waits until sshd says it listens (`READY=1` on its readiness socket, sent once it has bound its
    /// port), or until it ends, which is fine only if its port was taken.
    private func waitUntilListening() throws -> Start {
        let deadline = ContinuousClock.now.advanced(by: TmuxSession.defaultTimeout)
        while true {
            var watched = [readiness, ended].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let left = deadline - ContinuousClock.now
            let ready = poll(&watched, nfds_t(watched.count), ProcessTree.milliseconds(max(.zero, left)))
            if ready < 0 && errno == EINTR { continue }
            if watched[0].revents & Int16(POLLIN) != 0 {
                var message = [UInt8](repeating: 0, count: 256)
                let count = recv(readiness, &message, message.count, 0)
                if count > 0, String(decoding: message.prefix(count), as: UTF8.self).contains("READY=1") {
                    return .listening
                }
                continue
            }
            if watched[1].revents != 0 {
                close(readiness)
                close(ended)
                let log = logText()
                if log.contains("Address already in use") { return .portTaken(log: log) }
                throw Failed(description: "sshd ended before it listened:\n\(log)")
            }
            if ready == 0 {
                sshd.signal(SIGKILL)
                ProcessTree.reap([pid], within: .seconds(10))
                close(readiness)
                close(ended)
                throw Failed(description: "sshd did not listen within \(TmuxSession.defaultTimeout):\n\(logText())")
            }
        }
    }

    /// A Unix datagram socket bound to `path` (sshd's `NOTIFY_SOCKET`).
    private static func datagramSocket(boundTo path: String) throws -> Int32 {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw Failed(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            close(socket)
            throw Failed(description: "the readiness socket's path is too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
        guard bound else {
            let problem = String(cString: strerror(errno))
            close(socket)
            throw Failed(description: "bind \(path): \(problem)")
        }
        return socket
    }

    private static func makeKey(_ file: URL) throws {
        let made = try ChildProcess.run(
            ["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "fitiq-e2e", "-f", file.path],
            environment: ["PATH": "/usr/bin:/bin"])
        guard made.status == 0 else { throw Failed(description: "ssh-keygen: \(made.output)") }
    }

    private static func currentUser() throws -> String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else {
            throw Failed(description: "no user name for uid \(geteuid())")
        }
        return String(cString: name)
    }
}
