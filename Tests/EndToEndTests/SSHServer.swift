import FitIQTestSupport
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
struct SSHServer: Sendable {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Keys, configuration, known hosts, the pid file and sshd's log.
    let folder: URL
    let port: Int
    /// sshd's listening process (a child of the test process).
    let pid: pid_t
    /// Tells when sshd ends (and its status), without polling.
    let exit: ChildExit
    /// Where sshd says it listens (`READY=1`, its systemd readiness message; `NOTIFY_SOCKET`).
    let readiness: Int32
    /// Who logs in: the user running the tests.
    let user: String

    var clientKey: URL { folder.appendingPathComponent("client_key") }
    var knownHosts: URL { folder.appendingPathComponent("known_hosts") }
    /// sshd's own log (`-e`, level VERBOSE): logins, sessions, and why one was refused.
    var log: URL { folder.appendingPathComponent("sshd.log") }

    /// The sshd log so far.
    func logText() -> String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// Runs `body` with a server started by ``start()``, stopped afterwards whatever happens.
    static func with<T: Sendable>(_ body: (SSHServer) async throws -> T) async throws -> T {
        let server = try await start()
        defer { server.stop() }
        return try await body(server)
    }

    /// Makes the keys and starts sshd; returns once it listens. A port is found free (`choosePort`),
    /// then given to sshd; if something else takes it in between, sshd fails to bind and another
    /// port is chosen.
    static func start(choosingPortsWith choosePort: () throws -> Int = freePort) async throws -> SSHServer {
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
                switch try server.waitUntilListening() {
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
    func stop() {
        let sessions = ProcessTree.descendants(of: pid)
        kill(pid, SIGTERM)
        // sshd leaves running sessions alone when it ends: end them too (they hang up as a
        // dropped connection would).
        for session in sessions { kill(session, SIGHUP) }
        if exit.wait(timeout: .seconds(10)) == nil {
            kill(pid, SIGKILL)
            _ = exit.wait(timeout: .seconds(10))
        }
        close(readiness)
        ProcessTree.reap(sessions, within: .seconds(10))
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: The client

    /// The environment of every `ssh`: a path and, for a terminal, its type; no `LANG`, no `LC_*`.
    func clientEnvironment(term: String? = nil) -> [String: String] {
        var environment = ["PATH": "/usr/bin:/bin"]
        environment["TERM"] = term
        return environment
    }

    /// The options of every `ssh` to this server: no configuration file (Debian's sends `LANG` and
    /// `LC_*`), no variable sent, only this server's client key, no agent, its own known-hosts file
    /// (the host key accepted on first sight), never a question, only errors on standard error.
    func clientArguments(terminal: Bool) -> [String] {
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
    func terminalCommand(_ remoteCommand: String, term: String) -> String {
        let environment = clientEnvironment(term: term).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let words = ["env", "-i"] + environment + ["/usr/bin/ssh"] + clientArguments(terminal: true)
        let ssh = (words + ["--", remoteCommand]).map(shellQuote).joined(separator: " ")
        return "\(ssh); echo \"ssh exited with status $?\"; exec sleep infinity"
    }

    /// Runs `remoteCommand` (a shell command line) on this server without a terminal, `input` on its
    /// standard input; returns what came back and the remote exit status (255: ssh itself failed).
    func run(_ remoteCommand: String, input: String? = nil) async throws -> CommandRunner.Result {
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
        let settings = """
            # A throw-away sshd for one end-to-end test (Tests/EndToEndTests/SSHServer.swift).
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
        let pid: pid_t
        do {
            pid = try CleanSpawn.start(
                program, arguments,
                environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "NOTIFY_SOCKET": notify.path],
                output: folder.appendingPathComponent("sshd.log"))
        } catch {
            close(readiness)
            throw error
        }
        return SSHServer(
            folder: folder, port: port, pid: pid, exit: ChildExit(pid: pid), readiness: readiness, user: user)
    }

    /// Waits until sshd says it listens (`READY=1` on its readiness socket, sent once it has bound its
    /// port), or until it ends, which is fine only if its port was taken.
    private func waitUntilListening() throws -> Start {
        let deadline = ContinuousClock.now.advanced(by: TmuxSession.defaultTimeout)
        while true {
            var watched = [pollfd(fd: readiness, events: Int16(POLLIN), revents: 0), exit.readable]
            let left = deadline - ContinuousClock.now
            let ready = poll(&watched, nfds_t(watched.count), ChildExit.milliseconds(max(.zero, left)))
            if ready < 0 && errno == EINTR { continue }
            if watched[0].revents & Int16(POLLIN) != 0 {
                var message = [UInt8](repeating: 0, count: 256)
                let count = recv(readiness, &message, message.count, 0)
                if count > 0, String(decoding: message.prefix(count), as: UTF8.self).contains("READY=1") {
                    return .listening
                }
                continue
            }
            if let status = exit.wait(timeout: .zero) {
                close(readiness)
                let log = logText()
                if log.contains("Address already in use") { return .portTaken(log: log) }
                throw Failed(description: "sshd ended with status \(CleanSpawn.exitStatus(status)):\n\(log)")
            }
            if ready == 0 {
                kill(pid, SIGKILL)
                _ = exit.wait(timeout: .seconds(10))
                close(readiness)
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
        let made = try CleanSpawn.run(
            "/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "fitiq-e2e", "-f", file.path],
            environment: ["PATH": "/usr/bin:/bin"])
        guard made.status == 0 else { throw Failed(description: "ssh-keygen: \(made.output)") }
    }

    private static func currentUser() throws -> String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else {
            throw Failed(description: "no user name for uid \(geteuid())")
        }
        return String(cString: name)
    }

    /// A loopback port nothing listens on now: bound with port 0, read, closed.
    static func freePort() throws -> Int {
        let (socket, port) = try boundSocket(listening: false)
        close(socket)
        return port
    }

    /// A TCP socket bound to a free loopback port (port 0), listening if `listening`, and its port.
    static func boundSocket(listening: Bool) throws -> (socket: Int32, port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failed(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound, !listening || listen(socket, 8) == 0 else {
            let problem = String(cString: strerror(errno))
            close(socket)
            throw Failed(description: "bind or listen: \(problem)")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// The end of a child process, told without polling: a thread waits in `waitpid` and then writes to a
/// pipe, which ``wait(timeout:)`` (or a `poll` of ``readable``) watches.
final class ChildExit: @unchecked Sendable {
    private let lock = NSLock()
    private var status: Int32?
    private let ends: [Int32]

    init(pid: pid_t) {
        var made: [Int32] = [-1, -1]
        _ = pipe(&made)
        for end in made { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        ends = made
        let writeEnd = made[1]
        Thread.detachNewThread { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            lock.withLock { self.status = status }
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
    }

    deinit {
        for end in ends { close(end) }
    }

    /// For `poll`: readable once the process has ended.
    var readable: pollfd { pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0) }

    /// The process's wait status once it has ended; `nil` if it still runs after `timeout`.
    func wait(timeout: Duration) -> Int32? {
        var watched = [readable]
        while poll(&watched, 1, Self.milliseconds(timeout)) < 0 && errno == EINTR {}
        return lock.withLock { status }
    }

    /// A `poll` timeout: `duration` in whole milliseconds, rounded up.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
