import Hummingbird

/// `/users/me` (GET, POST, PUT, DELETE) and `PATCH /users/me/physical`.
struct ProfileController: Sendable {
    let services: DevServerServices

    var renderer: ProfileRenderer { ProfileRenderer(shape: services.configuration.responseShape) }

    func register(on group: RouterGroup<DevRequestContext>) {
        group.get("users/me") { _, context in try await self.show(user: context.requireUser()) }
        group.post("users/me") { request, context in try await self.create(request, user: context.requireUser()) }
        group.put("users/me") { request, context in try await self.update(request, user: context.requireUser()) }
        group.delete("users/me") { _, context in try await self.erase(user: context.requireUser()) }
        group.patch("users/me/physical") { request, context in
            try await self.updatePhysical(request, user: context.requireUser())
        }
    }

    func show(user: UserRecord) async throws -> Response {
        guard let profile = try await services.store.profile(userID: user.id) else { throw APIError.profileNotFound }
        return JSONResponse.data(renderer.render(profile, user: user, for: .read))
    }

    func create(_ request: Request, user: UserRecord) async throws -> Response {
        let input = try MetadataInput(payload: try await RequestPayload.read(from: request))
        let now = services.timestamp
        let profile = ProfileRecord(
            id: DevServerServices.makeID(), userID: user.id, name: input.name, bio: input.bio,
            preferredUnitSystem: input.preferredUnitSystem, languageCode: input.languageCode, biologicalSex: nil,
            heightCm: nil, createdAt: now, updatedAt: now
        )
        guard try await services.store.insertProfile(profile) else { throw APIError.profileExists }
        return JSONResponse.data(renderer.render(profile, user: user, for: .write), status: .created)
    }

    func update(_ request: Request, user: UserRecord) async throws -> Response {
        let input = try MetadataInput(payload: try await RequestPayload.read(from: request))
        guard var profile = try await services.store.profile(userID: user.id) else { throw APIError.profileNotFound }
        profile.name = input.name
        profile.preferredUnitSystem = input.preferredUnitSystem
        if let bio = input.bio { profile.bio = bio }
        if let language = input.languageCode { profile.languageCode = language }
        profile.updatedAt = services.timestamp
        try await services.store.updateProfile(profile)
        return JSONResponse.data(renderer.render(profile, user: user, for: .write))
    }

    func erase(user: UserRecord) async throws -> Response {
        guard try await services.store.deleteUser(id: user.id) else { throw APIError(.notFound, "User not found") }
        return Response(status: .noContent)
    }

    func updatePhysical(_ request: Request, user: UserRecord) async throws -> Response {
        let input = try PhysicalInput(payload: try await RequestPayload.read(from: request))
        guard var profile = try await services.store.profile(userID: user.id) else { throw APIError.profileNotFound }
        if let sex = input.biologicalSex { profile.biologicalSex = sex }
        if let height = input.heightCm { profile.heightCm = height }
        profile.updatedAt = services.timestamp
        try await services.store.updateProfile(profile)
        return JSONResponse.data(renderer.render(profile, user: user, for: .physical))
    }
}
