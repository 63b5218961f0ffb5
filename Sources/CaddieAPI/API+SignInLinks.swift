import CaddieNode
import Foundation
import Hummingbird

/// A partner's phone signed in from the app: the Devices screen asks for the one-time link (and QR code) that
/// `caddie web link --partner` prints, addressed as this browser reached the node, so a phone on the same Wi-Fi
/// reaches it too. It signs in a partner, never the owner: that phone reads, becomes a device of its own user and
/// sends what it signs (PartnerAccess). Only the owner's browser may ask for one.
extension NodeAPI {
    /// POST /v1/signin-links: a new one-time sign-in link, its QR code (SVG) and, with a trust page, the plain-HTTP
    /// address that installs the node's authority first, with a code of its own: it carries no secret, so neither
    /// the page nor whoever answers in its place ever sees the sign-in link.
    func makeSignInLink(_ request: Request, secure: Bool) async throws -> Response {
        guard let authority = request.head.authority, !authority.isEmpty else {
            throw APIError.badRequest("the request names no host: open the app by the node's address")
        }
        // The address is rebuilt from the host the guard checked and a numeric port, never echoed as sent.
        let host = HostRule.host(of: authority)
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let portText =
            authority.hasPrefix("[")
            ? authority.split(separator: "]").dropFirst().first.map { String($0.dropFirst()) }
            : authority.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init)
        guard host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:".contains($0) }),
            portText.map({ UInt16($0) != nil }) ?? true
        else {
            throw APIError.badRequest("the request's Host is not an address and port: open the app by the node's address")
        }
        let address = portText.map { "\(bracketed):\($0)" } ?? bracketed
        let home = home
        let (secret, endpoint) = try await write { () throws -> (String, HTTPEndpoint?) in
            (try WebAccess(home: home).newLink(.partner), try HTTPEndpoint.read(home))
        }
        let url = "\(secure ? "https" : "http")://\(address)/signin?t=\(secret)"
        let trust = endpoint?.trustPort.map { "http://\(bracketed):\($0)/" }
        return Response.json(
            .object([
                ("url", .string(url)), ("trustUrl", .optional(trust)),
                ("expiresInSeconds", .int(Int(WebAccess.linkLifetime))),
                ("qr", QRCode.svg(url).map { .string($0) } ?? .null),
                ("trustQr", trust.flatMap { QRCode.svg($0) }.map { .string($0) } ?? .null),
            ]), status: .created)
    }
}
