import FitIQCore
import FitIQTestSupport
import Foundation
import Hummingbird
import Logging
import Synchronization
import Testing

/// Bad input through the command line, plain mode and CSV files: every row ends with a message naming
/// the field (or the line) and its rule, exit 64 (plain mode answers and goes on), nothing queued, and
/// no escape or control byte printed.
@Suite(.timeLimit(.minutes(5)))
struct BadInputCLITests {
    /// The first line a person reads: the error, else the first line printed.
    static func message(_ result: CommandRunner.Result) -> String {
        let lines = (result.stdout + result.stderr).split(separator: "\n").map(String.init).filter {
            !$0.trimmingCharacters(in: .whitespaces).isEmpty
        }
        return lines.first { $0.hasPrefix("Error:") || $0.hasPrefix("Offline:") } ?? lines.first ?? ""
    }

    /// How many changes wait to be sent.
    static func pending(_ cli: CLIHarness) async throws -> Int? {
        let status = try await cli.run(["status", "--json"])
        return (try? CLIHarness.json(status) as? [String: Any])?["pendingChanges"] as? Int
    }

    /// A birth date 12 and a half years ago: too young to register.
    static var twelveYearsAgo: String {
        let day = CalendarDate(containing: Date().addingTimeInterval(-12.5 * 365.25 * 86_400), in: .utc)
        return day.description
    }

    static let commandLine: [(case: String, arguments: [String], field: String)] = [
        ("name empty", ["profile", "set", "--name", ""], "Name"),
        ("name whitespace", ["profile", "set", "--name", "   "], "Name"),
        ("name 101 characters", ["profile", "set", "--name", String(repeating: "n", count: 101)], "Name"),
        ("bio 501 characters", ["profile", "set", "--bio", String(repeating: "b", count: 501)], "Bio"),
        ("name with escape sequence", ["profile", "set", "--name", "Eve\u{1B}[2J"], "Name"),
        ("bio with OSC title", ["profile", "set", "--bio", "\u{1B}]0;pwned\u{07}"], "Bio"),
        ("language xx-invalid-!!", ["profile", "set", "--language", "xx-invalid-!!"], "Language"),
        ("units furlongs", ["profile", "set", "--units", "furlongs"], "Unit system"),
        ("height abc", ["height", "set", "abc"], "Height"),
        ("height -5", ["height", "set", "--", "-5"], "Height"),
        ("height 0", ["height", "set", "0"], "Height"),
        ("height 1e9", ["height", "set", "1e9"], "Height"),
        ("height 5'13\"", ["height", "set", "5'13\""], "Height"),
        ("height date in the future", ["height", "set", "180", "--date", "2999-01-01"], "Date"),
        ("weight abc", ["weight", "set", "abc"], "Weight"),
        ("weight 700", ["weight", "set", "700"], "Weight"),
        ("weight 1 kg", ["weight", "set", "1", "kg"], "Weight"),
        ("weight 72 stone", ["weight", "set", "72", "stone"], "Weight"),
        ("weight 11 st 15 lb", ["weight", "set", "11 st 15 lb"], "Weight"),
        ("weight date in the future", ["weight", "set", "72", "--date", "2999-01-01"], "Date"),
        ("weight correct: no such entry", ["weight", "correct", "no-such-id", "72"], "weight"),
        ("body-fat 80", ["body-fat", "set", "80"], "Body fat"),
        ("body-fat -5", ["body-fat", "set", "--", "-5"], "Body fat"),
        ("body-fat abc", ["body-fat", "set", "abc"], "Body fat"),
    ]

    @Test func everyCommandLineFieldRefusesItsBadValuesNamingTheFieldAndTheRule() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                var rows = Self.commandLine
                for (name, email, birth, field) in [
                    ("register: future date of birth", "x@example.com", "2999-01-01", "Date of birth"),
                    ("register: age 12", "y@example.com", Self.twelveYearsAgo, "Date of birth"),
                    ("register: bad email", "not-an-email", "1990-01-01", "Email"),
                ] {
                    let arguments = [
                        "register", "--server", server.url, "--email", email, "--name", "X", "--date-of-birth", birth,
                    ]
                    rows.append((name, arguments, field))
                }
                for row in rows {
                    let result = try await cli.run(row.arguments, input: "a-good-password\n")
                    let said = Self.message(result)
                    #expect(result.status == 64, "\(row.case): \(result)")
                    #expect(said.lowercased().contains(row.field.lowercased()), "\(row.case): \(said)")
                    #expect((result.stdout + result.stderr).hasNoControlCharacters, "\(row.case): \(result)")
                    #expect(try await Self.pending(cli) == 0, "\(row.case)")
                }
            }
        }
    }

    /// A name that is not UTF-8 (`Ana \xff\xfe`) is refused like any bad name.
    @Test func aNameThatIsNotUTF8IsRefused() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let result = try await cli.runner.run(bytes: [
                    Array("profile".utf8), Array("set".utf8), Array("--name".utf8),
                    [0x41, 0x6E, 0x61, 0x20, 0xFF, 0xFE],
                ])
                #expect(result.status == 64, "\(result)")
                #expect(Self.message(result).contains("Name"), "\(result)")
                #expect((result.stdout + result.stderr).hasNoControlCharacters)
                #expect(try await Self.pending(cli) == 0)
            }
        }
    }

    @Test func plainModeAnswersEachBadValueWithItsFieldAndRuleAndSavesNothing() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                for (line, said) in [
                    ("set weight 700", "Weight must be between 2 and 635 kg"),
                    ("set weight abc", "Weight must be a number"),
                    ("set body-fat 80", "Body fat must be between 1 and 75 %"),
                    ("set bmi 22", "BMI is derived"),
                    ("set height 5'13\"", "Height inches after feet must be below 12"),
                ] {
                    let result = try await cli.run(["--plain"], input: line + "\nsave\nquit\n")
                    #expect(result.status == 0, "\(line): \(result)")
                    #expect(result.stdout.contains(said), "\(line): \(result)")
                    #expect(result.stdout.contains("There is nothing to save."), "\(line): \(result)")
                    #expect((result.stdout + result.stderr).hasNoControlCharacters, "\(line)")
                    #expect(try await Self.pending(cli) == 0, "\(line)")
                }
            }
        }
    }

    /// Each bad file ends with a message naming the line and the rule; a file with a bad row imports
    /// nothing.
    @Test func badCSVFilesNameTheLineAndTheRuleAndQueueNothing() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let files: [(case: String, content: [UInt8], said: String)] = [
                    ("broken quoting", Array("date,weight\n2025-03-01,80.5\n\"2025-03-02,81\n".utf8), "line 3"),
                    (
                        "byte-order mark and CRLF",
                        [0xEF, 0xBB, 0xBF] + Array("Date,Weight\r\n2025-03-01,80.5\r\n2025-03-02,x\r\n".utf8),
                        "line 3: Weight must be a number"
                    ),
                    (
                        "separator ;", Array("date;weight\n2025-03-01;\"80,5\"\n2025-02-30;81\n".utf8),
                        "line 3: date must be"
                    ),
                    (
                        "separator tab", Array("date\tweight\n2025-03-01\t80.5\n2025-03-02\t700\n".utf8),
                        "line 3: Weight must be between 2 and 635 kg"
                    ),
                    (
                        "invalid UTF-8",
                        Array("date,weight\n2025-03-01,80.5\n2025-03-02,8".utf8) + [0xFF, 0xFE] + Array("1\n".utf8),
                        "line 3: a row must be UTF-8 text"
                    ),
                    (
                        "a 100 MB line",
                        Array("date,weight\n2025-03-01,80.5\n2025-03-02,".utf8)
                            + [UInt8](repeating: 0x39, count: 100_000_000) + [0x0A],
                        "line 3: a row must be at most 4096 bytes long"
                    ),
                    (
                        "date out of range",
                        Array(
                            "logged_at,metric,value,unit,source,id\n9999999-01-01T00:00:00Z,weight,80,kg,manual,a\n"
                                .utf8),
                        "line 2: logged_at must be"
                    ),
                    ("number out of range", Array("date,weight\n2025-03-01,1e400\n".utf8), "line 2: Weight must be"),
                    ("unknown header", Array("when,kilos\n2025-03-01,80\n".utf8), "is not one of the formats read"),
                    // Other apps' exports: huge values, wrong types, times of another form.
                    (
                        "Withings, a huge weight",
                        Array("Date,\"Weight (kg)\",\"Fat mass (kg)\"\n\"2024-03-01 07:00:00\",9000,\n".utf8),
                        "line 2: Weight must be between 2 and 635 kg"
                    ),
                    (
                        "Withings, a word for a weight",
                        Array("Date,\"Weight (kg)\",Comments\n\"2024-03-01 07:00:00\",heavy,\n".utf8),
                        "line 2: Weight must be a number"
                    ),
                    (
                        "Samsung Health, a time of another form",
                        Array(
                            "com.samsung.health.weight,1,3\nstart_time,time_offset,weight,\nyesterday,UTC+0100,71.3,\n"
                                .utf8), "line 3: the time is not one this format writes"
                    ),
                    (
                        "Libra, a huge weight in pounds",
                        Array(
                            "#Units:lb\n#date;weight;weight trend;body fat;body fat trend;comment\n2024-03-01T06:30:00.000Z;9999;;;;\n"
                                .utf8), "line 3: Weight must be between"
                    ),
                    (
                        "Renpho, hour 25",
                        Array("Date, Time, Weight(kg)\n14/03/2024, 25:00:00, 72.4\n".utf8),
                        "line 2: the time is not one this format writes"
                    ),
                    (
                        "Fitbit, a word for a weight",
                        Array("[{\"logId\": 1, \"weight\": \"heavy\", \"bmi\": 24, \"date\": \"03/01/24\"}]".utf8),
                        "The JSON cannot be read: [0].weight"
                    ),
                    (
                        "Google Fit, a huge weight",
                        Array(
                            "{\"Data Points\": [{\"dataTypeName\": \"com.google.weight\", \"endTimeNanos\": 1709450000000000000, \"fitValue\": [{\"value\": {\"fpVal\": 1e300}}]}]}"
                                .utf8), "entry 1: Weight must be between"
                    ),
                    (
                        "Garmin, a word for grams",
                        Array("[{\"weight\": {\"weight\": \"a lot\", \"timestampGMT\": 1709280000000}}]".utf8),
                        "The JSON cannot be read: [0].weight.weight"
                    ),
                ]
                for file in files {
                    let path = cli.folder.appendingPathComponent("bad.csv")
                    try Data(file.content).write(to: path)
                    let result = try await cli.run(["import-csv", path.path])
                    #expect(result.status == 64, "\(file.case): \(result.status) \(Self.message(result))")
                    #expect(
                        (result.stdout + result.stderr).contains(file.said), "\(file.case): \(Self.message(result))")
                    #expect((result.stdout + result.stderr).hasNoControlCharacters, "\(file.case)")
                    #expect(try await Self.pending(cli) == 0, "\(file.case)")
                }
            }
        }
    }
}

/// Bad server answers to `GET /users/me`: `profile show` shows the cached profile with a clear reason,
/// or a sanitized one; it never crashes or hangs, never prints an escape or control byte, and keeps the
/// cache.
@Suite(.timeLimit(.minutes(5)))
struct BadServerAnswerCLITests {
    /// The profile a well-behaved server would send, and the hostile answers.
    static var profile: [String: Any] {
        [
            "id": "p1", "user_id": "u1", "name": "Server Name", "bio": "fine", "preferred_unit_system": "metric",
            "language_code": "en", "date_of_birth": "1990-01-01", "height_cm": 170,
            "created_at": "2026-01-01T00:00:00Z",
            "updated_at": "2026-01-01T00:00:00Z",
        ]
    }

    static func answer(_ mode: String) throws -> Response {
        func json(_ object: Any) throws -> Response {
            let data = try JSONSerialization.data(withJSONObject: ["data": ["profile": object]])
            return body(String(decoding: data, as: UTF8.self))
        }
        func body(_ text: String, status: HTTPResponse.Status = .ok, type: String = "application/json") -> Response {
            Response(
                status: status, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        var profile = Self.profile
        switch mode {
        case "garbage": return body("\u{0}\u{FF}{garbage")
        case "html":
            return body("<html><body><h1>502 Bad Gateway</h1></body></html>", status: .badGateway, type: "text/html")
        case "huge":
            return body("{\"data\": {\"profile\": {\"bio\": \"" + String(repeating: "a", count: 10 << 20) + "\"}}}")
        case "wrong types":
            profile["name"] = 123
            profile["height_cm"] = "tall"
            profile["date_of_birth"] = false
        case "missing fields": return body("{\"data\": {}}")
        case "escapes":
            profile["bio"] = "\u{1B}]0;pwned\u{07} and \u{1B}[2J cleared"
            profile["name"] = "Eve\u{1B}[31m"
        default: break
        }
        return try json(profile)
    }

    @Test func eachBadAnswerShowsTheCachedProfileWithAReasonAndNoEscapeByte() async throws {
        try await withCLI { cli in
            let mode = Mutex("fine")
            let router = Router()
            router.get("/api/v1/users/me") { _, _ in try Self.answer(mode.withLock { $0 }) }
            // The account and its profile come from the development server; then another server takes
            // its port (the address the account is kept under) and answers badly. The port is free for a
            // moment in between, and a connection of a test running beside this one may take it as its
            // own end: then a new account on a new port is tried, up to three times.
            var running: Task<Void, Never>?
            for _ in 1...3 where running == nil {
                let port = try await TestDevServer.with { (server: TestDevServer) async throws -> Int in
                    cli.server = server.url
                    #expect(try await cli.register().status == 0)
                    return server.port
                }
                let (ports, listening) = AsyncStream.makeStream(of: Int.self)
                let application = Application(
                    router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
                    onServerRunning: { listening.yield($0.localAddress?.port ?? 0) },
                    logger: Logger(label: "bad-answers", factory: { _ in SwiftLogNoOpLogHandler() }))
                let task = Task(executorPreference: OwnQueueExecutor()) {
                    // A port taken ends the run at once; the stream's end says so.
                    try? await application.run()
                    listening.finish()
                }
                var iterator = ports.makeAsyncIterator()
                if await iterator.next() == port { running = task } else { task.cancel() }
            }
            defer { running?.cancel() }
            try #require(running != nil, "the development server's port was taken three times")

            for hostile in ["garbage", "html", "huge", "wrong types", "missing fields", "escapes"] {
                mode.withLock { $0 = hostile }
                let started = ContinuousClock.now
                let shown = try await cli.run(["profile", "show"], timeout: .seconds(40))
                let took = ContinuousClock.now - started
                #expect(shown.status == 0 || shown.status == 1, "\(hostile): \(shown)")
                #expect((shown.stdout + shown.stderr).hasNoControlCharacters, "\(hostile): \(shown)")
                #expect(took < .seconds(30), "\(hostile): \(took)")
                if hostile != "escapes" {
                    // The reason is said: the answer could not be read, or the server is unavailable.
                    #expect(
                        (shown.stdout + shown.stderr).contains("Offline: showing the cached profile"),
                        "\(hostile): \(shown)")
                }
                mode.withLock { $0 = "fine" }
                let cached = try await cli.run(["profile", "show", "--json"])
                let name = (try? CLIHarness.json(cached) as? [String: Any])?["name"] as? String
                // The profile kept: the account's, or the last one a server sent (a name holding an escape is
                // kept as sent, and printed JSON-escaped or stripped, never raw).
                let kept = ["Jane Doe", "Server Name", "Eve\u{1B}[31m"]
                #expect(kept.contains(name ?? ""), "\(hostile): \(String(reflecting: name))")
            }
        }
    }
}
