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
    struct NewSignInLink: Decodable { let space: String? }

    func makeSignInLink(_ request: Request, secure: Bool) async throws -> Response {
        // The space the partner's phone is for: the body's, or the home's only one.
        let buffer = try? await request.body.collect(upTo: Self.maxBody)
        let asked = buffer.flatMap { $0.readableBytes > 0 ? $0 : nil }.flatMap {
            try? JSONDecoder().decode(NewSignInLink.self, from: Data($0.readableBytesView))
        }
        let home = home
        let space = try await read { try home.spaces.resolveSpace(asked?.space) }
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
        // Files of the home only (the link, the endpoint): no write of the store, so no unit of work holding its lock.
        let (secret, endpoint) = try await read { () throws -> (String, HTTPEndpoint?) in
            (try WebAccess(home: home).newLink(.partner, space: space), try HTTPEndpoint.read(home))
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
