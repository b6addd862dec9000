import Testing

@testable import FitIQDevServer

struct ConfigurationTests {
    @Test func apiKeyComesFromTheEnvironmentOrTheFlag() throws {
        let fromEnvironment = try DevServerSecrets.resolve(
            apiKeyFlag: nil, jwtSecretFlag: nil, demoAccount: false, environment: ["FITIQ_DEV_API_KEY": "env-key"])
        #expect(fromEnvironment.apiKey == "env-key")
        let fromFlag = try DevServerSecrets.resolve(
            apiKeyFlag: "flag-key", jwtSecretFlag: nil, demoAccount: false, environment: ["FITIQ_DEV_API_KEY": "env"])
        #expect(fromFlag.apiKey == "flag-key")
    }

    @Test func refusesToStartWithoutAnAPIKey() {
        #expect(throws: DevServerSetupError.missingAPIKey) {
            try DevServerSecrets.resolve(apiKeyFlag: nil, jwtSecretFlag: nil, demoAccount: false, environment: [:])
        }
        #expect(DevServerSetupError.missingAPIKey.description.contains("FITIQ_DEV_API_KEY"))
    }

    @Test func jwtSecretIsKeptWhenGivenAndRandomOtherwise() throws {
        let kept = try DevServerSecrets.resolve(
            apiKeyFlag: "k", jwtSecretFlag: nil, demoAccount: false,
            environment: ["FITIQ_DEV_JWT_SECRET": String(repeating: "s", count: 32)])
        #expect(kept.jwtSecret == String(repeating: "s", count: 32))
        #expect(throws: DevServerSetupError.shortJWTSecret) {
            try DevServerSecrets.resolve(
                apiKeyFlag: "k", jwtSecretFlag: "short", demoAccount: false, environment: [:])
        }
        let first = try DevServerSecrets.resolve(
            apiKeyFlag: "k", jwtSecretFlag: nil, demoAccount: false, environment: [:])
        let second = try DevServerSecrets.resolve(
            apiKeyFlag: "k", jwtSecretFlag: nil, demoAccount: false, environment: [:])
        #expect(first.jwtSecret.count >= 32)
        #expect(first.jwtSecret != second.jwtSecret)
    }

    @Test func demoAccountNeedsItsPasswordInTheEnvironment() throws {
        #expect(throws: DevServerSetupError.missingDemoPassword) {
            try DevServerSecrets.resolve(apiKeyFlag: "k", jwtSecretFlag: nil, demoAccount: true, environment: [:])
        }
        let secrets = try DevServerSecrets.resolve(
            apiKeyFlag: "k", jwtSecretFlag: nil, demoAccount: true, environment: ["FITIQ_DEV_DEMO_PASSWORD": "pw"])
        #expect(secrets.demoPassword == "pw")
    }

    @Test(arguments: [(1.5, 0.0), (0.0, -0.1), (-0.2, 0.0), (0.0, 2.0)])
    func ratesOutside0To1AreRejected(failRate: Double, dropRate: Double) {
        var configuration = TestSupport.configuration()
        configuration.failRate = failRate
        configuration.dropRate = dropRate
        #expect(throws: DevServerSetupError.self) { try configuration.validate() }
    }

    @Test func setupErrorsSayHowToFixThem() {
        #expect(DevServerSetupError.missingDemoPassword.description.contains("FITIQ_DEV_DEMO_PASSWORD"))
        #expect(
            DevServerSetupError.invalidValue(option: "fail-rate", reason: "must be 0...1").description
                == "--fail-rate must be 0...1.")
    }
}
