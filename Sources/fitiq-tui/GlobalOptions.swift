import ArgumentParser

/// Options every command accepts, before or after the subcommand's name.
struct GlobalOptions: ParsableArguments {
    @Option(help: "The FitIQ server's URL (else FITIQ_SERVER, the config file, or the last account signed in).")
    var server: String?

    @Option(help: "A file holding the API key (else FITIQ_API_KEY or the config file). Never pass the key itself.")
    var apiKeyFile: String?

    @Option(
        help:
            "The account to use, by email (else FITIQ_ACCOUNT, else the default: `accounts use EMAIL`); `accounts` lists them."
    )
    var account: String?

    @Flag(help: "Allow plain http:// to a machine other than this one (passwords and tokens travel unencrypted).")
    var allowInsecureHTTP = false
}

extension AppConfig {
    /// The configuration of this process with the options given on its command line.
    static func live(options: GlobalOptions) -> AppConfig {
        var config = live(
            serverFlag: options.server, apiKeyFile: options.apiKeyFile, allowInsecureHTTP: options.allowInsecureHTTP)
        config.accountFlag = options.account
        return config
    }
}
