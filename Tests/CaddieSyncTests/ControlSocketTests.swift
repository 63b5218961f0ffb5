import Testing

@testable import CaddieSync

@Suite("The control socket's admission rule")
struct ControlSocketTests {
    @Test("the node's own user and root get in; another user, and a process whose user could not be read, do not")
    func admission() {
        #expect(ControlSocket.admits(peer: 1000, owner: 1000))
        #expect(ControlSocket.admits(peer: 0, owner: 1000))
        #expect(!ControlSocket.admits(peer: 1001, owner: 1000))
        // Second review: a failed credential read used to let the connection in.
        #expect(!ControlSocket.admits(peer: nil, owner: 1000))
        #expect(!ControlSocket.admits(peer: nil, owner: 0))
    }
}
