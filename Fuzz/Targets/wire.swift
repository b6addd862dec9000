// libFuzzer target `wire`: every server answer the client decodes, in both shapes (production's
// `{"data": …}` envelope and the written spec's), with the readers of FitIQHTTP's WireResponses.swift.
//
// Compiled into the module FitIQHTTP with the decoding files only (scripts/fuzz/build.sh): the
// transport needs AsyncHTTPClient and NIO, the readers only FitIQCore. Every input is given to every
// reader, as the answer to each request; then what was read is shown the way the client shows it.
import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let body = start.map { Data(bytes: $0, count: count) } ?? Data()
    if let tokens = try? WireResponses.tokens(body) {
        _ = AccessTokenClaims(token: tokens.accessToken)?.refreshDue(receivedAt: Date(timeIntervalSince1970: 0))
    }
    _ = try? WireResponses.registration(body, email: "someone@example.com")
    if let profile = try? WireResponses.profile(body) {
        _ = TextSanitizer.sanitize(profile.metadata.name)
        _ = profile.metadata.bio.map(TextSanitizer.sanitize)
        if let height = profile.heightCm { show(height) }
    }
    if let entry = try? WireResponses.progressEntry(body) { show(entry.quantity) }
    let query = ProgressQuery(type: "height", limit: 100, offset: 0)
    if let page = try? WireResponses.progressPage(body, query: query) {
        for entry in page.entries { show(entry.quantity) }
    }
    for status in [400, 401, 404, 409, 429, 500] {
        let message = WireResponses.errorMessage(body, status: status, contentType: "application/json")
        precondition(
            !TextSanitizer.containsControls(message), "an error message holds controls: \(message.debugDescription)")
        _ = WireResponses.errorMessage(body, status: status, contentType: nil)
    }
    return 0
}

/// A height from the server as the profile and history screens show it.
private func show(_ centimetres: Double) {
    _ = Height.format(centimetres, unitSystem: .metric)
    _ = Height.format(centimetres, unitSystem: .imperial)
}
