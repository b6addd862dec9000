import Foundation
import Hummingbird
import Logging

/// `GET`/`POST /progress` and `DELETE /progress/{id}`.
struct ProgressController: Sendable {
    static let defaultLimit = 20
    static let limitRange = 1...100
    static let defaultWindowDays = 30

    let services: DevServerServices

    func register(on group: RouterGroup<DevRequestContext>) {
        group.get("progress") { request, context in try await self.list(request, user: context.requireUser()) }
        group.post("progress") { request, context in
            try await self.create(request, user: context.requireUser(), logger: context.logger)
        }
        group.delete("progress/:id") { _, context in
            try await self.delete(
                id: context.parameters.get("id") ?? "", user: context.requireUser(), logger: context.logger)
        }
    }

    func create(_ request: Request, user: UserRecord, logger: Logger) async throws -> Response {
        let input = try ProgressInput(payload: try await RequestPayload.read(from: request))
        let now = services.timestamp
        let entry = ProgressRecord(
            id: DevServerServices.makeID(), userID: user.id, type: input.type, quantity: input.quantity,
            loggedAt: input.loggedAt ?? now, notes: input.notes
        )
        try await services.store.insertEntries([entry], createdAt: now)
        logger.info("progress: created \(Self.describe(entry))")
        return JSONResponse.data(Self.render(entry), status: .created)
    }

    func list(_ request: Request, user: UserRecord) async throws -> Response {
        let query = try Self.query(request.uri.queryParameters, userID: user.id, today: services.today)
        let page = try await services.store.entries(query)
        return JSONResponse.data(
            .object([
                "entries": .array(page.entries.map(Self.render)), "total": .integer(page.total),
                "limit": .integer(query.limit), "offset": .integer(query.offset),
            ]))
    }

    func delete(id: String, user: UserRecord, logger: Logger) async throws -> Response {
        guard let uuid = UUID(uuidString: id),
            let entry = try await services.store.entry(id: uuid.uuidString.lowercased())
        else { throw APIError.entryNotFound }
        guard entry.userID == user.id else { throw APIError.entryForbidden }
        try await services.store.deleteEntry(id: entry.id)
        logger.info("progress: deleted \(Self.describe(entry))")
        return Response(status: .noContent)
    }

    /// One entry in the request log, so that a run can tell which entry each `POST` made and each
    /// `DELETE` took away (the soak traces a lost change by it).
    static func describe(_ entry: ProgressRecord) -> String {
        "\(entry.id) \(entry.type) \(entry.quantity) logged at \(entry.loggedAt.rfc3339)"
    }

    /// Reads the listing's parameters. The operation documents only 200, 401 and 404, so an out-of-range
    /// `limit` or `offset` is clamped, and a value that cannot be read at all is answered 404.
    static func query(_ parameters: Parameters, userID: String, today: CalendarDate) throws(APIError)
        -> DevStore.ProgressQuery
    {
        let from = try day(parameters.get("from"), name: "from") ?? today.adding(days: -defaultWindowDays)
        let to = try day(parameters.get("to"), name: "to") ?? today
        let limit = try integer(parameters.get("limit"), name: "limit") ?? defaultLimit
        let offset = try integer(parameters.get("offset"), name: "offset") ?? 0
        let type = parameters.get("type").flatMap { $0.isEmpty ? nil : $0 }
        return DevStore.ProgressQuery(
            userID: userID, type: type, from: Timestamp(from.startOfDayUTC),
            until: Timestamp(to.adding(days: 1).startOfDayUTC),
            limit: min(max(limit, limitRange.lowerBound), limitRange.upperBound), offset: max(offset, 0)
        )
    }

    static func day(_ text: String?, name: String) throws(APIError) -> CalendarDate? {
        guard let text else { return nil }
        guard let date = CalendarDate(iso: text) else {
            throw APIError(.notFound, "Invalid '\(name)' date, expected YYYY-MM-DD")
        }
        return date
    }

    static func integer(_ text: String?, name: String) throws(APIError) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text) else { throw APIError(.notFound, "Invalid '\(name)', expected an integer") }
        return value
    }

    /// `{id, type, quantity, date, notes?}`; `notes` is left out when the entry has none.
    static func render(_ entry: ProgressRecord) -> JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(entry.id), "type": .string(entry.type), "quantity": .number(entry.quantity),
            "date": .string(entry.loggedAt.rfc3339),
        ]
        if let notes = entry.notes { fields["notes"] = .string(notes) }
        return .object(fields)
    }
}
