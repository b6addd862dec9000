import Foundation
import Hummingbird
import HummingbirdBcrypt

/// `POST /auth/register`, `/auth/login` and `/auth/refresh`.
struct AuthController: Sendable {
    let services: DevServerServices

    func register(on group: RouterGroup<DevRequestContext>) {
        group.post("auth/register") { request, _ in try await self.register(request) }
        group.post("auth/login") { request, _ in try await self.login(request) }
        group.post("auth/refresh") { request, _ in try await self.refresh(request) }
    }

    func register(_ request: Request) async throws -> Response {
        let input = try RegistrationInput(payload: try await RequestPayload.read(from: request), today: services.today)
        if try await services.store.user(email: input.email) != nil { throw APIError.emailTaken }
        let now = services.timestamp
        let user = UserRecord(
            id: DevServerServices.makeID(), email: input.email, passwordHash: services.hashPassword(input.password),
            name: input.name, dateOfBirth: input.dateOfBirth, createdAt: now
        )
        let profile =
            services.configuration.registerCreatesProfile
            ? ProfileRecord(
                id: DevServerServices.makeID(), userID: user.id, name: input.name, bio: nil,
                preferredUnitSystem: "metric", languageCode: "en", biologicalSex: nil, heightCm: nil,
                createdAt: now, updatedAt: now)
            : nil
        guard try await services.store.createUser(user, profile: profile) else { throw APIError.emailTaken }
        let tokens = try await services.issueTokens(for: user)
        return JSONResponse.data(
            .object([
                "user_id": .string(user.id), "email": .string(user.email), "name": .string(user.name),
                "created_at": .string(now.rfc3339), "access_token": .string(tokens.accessToken),
                "refresh_token": .string(tokens.refreshToken),
            ]),
            status: .created
        )
    }

    func login(_ request: Request) async throws -> Response {
        // The operation documents only 401 as a failure, so a malformed body is a 401 too.
        let malformed = APIError(.unauthorized, "Invalid request payload")
        let payload = try await RequestPayload.read(from: request, invalid: malformed)
        guard !payload.containsNull, let email = try payload.string("email", invalid: malformed),
            let password = try payload.string("password", invalid: malformed)
        else { throw malformed }
        guard let user = try await services.store.user(email: email.trimmingCharacters(in: .whitespaces)),
            Bcrypt.verify(password, hash: user.passwordHash)
        else { throw APIError.invalidCredentials }
        return Self.pairResponse(try await services.issueTokens(for: user))
    }

    func refresh(_ request: Request) async throws -> Response {
        let payload = try await RequestPayload.read(from: request, invalid: .invalidRefreshToken)
        guard let old = try payload.string("refresh_token", invalid: .invalidRefreshToken), !old.isEmpty else {
            throw APIError.invalidRefreshToken
        }
        let now = services.now()
        let new = TokenIssuer.makeRefreshToken()
        let result = try await services.store.rotateRefreshToken(
            old, to: new, now: Timestamp(now), newExpiresAt: services.refreshExpiry(from: now))
        switch result {
        case .unknown: throw APIError.invalidRefreshToken
        case .revoked: throw APIError.revokedRefreshToken
        case .expired: throw APIError.expiredRefreshToken
        case .rotated(let user):
            let access = try await services.issuer.accessToken(userID: user.id, email: user.email, now: now)
            return Self.pairResponse(TokenIssuer.TokenPair(accessToken: access, refreshToken: new))
        }
    }

    static func pairResponse(_ pair: TokenIssuer.TokenPair) -> Response {
        JSONResponse.data(
            .object(["access_token": .string(pair.accessToken), "refresh_token": .string(pair.refreshToken)]))
    }
}

extension APIError {
    static let emailTaken = APIError(.conflict, "User with this email already exists")
}
