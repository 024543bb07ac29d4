import Foundation
import LatchkeyTestSupport
import Testing
@testable import LatchkeyServer

/// Issue 32 on the cluster of `ClusterTests` (instances on one PostgreSQL behind nginx): ending a session or deleting
/// the account on one instance is in force on the others at once, and through the balancer.
@Suite(.serialized, .offCooperativePool) struct ClusterSessionTests {
    @Test func endingASessionAndDeletingTheAccountHoldEverywhere() async throws {
        guard let cluster = try ClusterTests.Cluster(serveArguments: "--step-up-max-age 300") else { return }
        defer { cluster.stop() }
        try #require(cluster.instances.count >= 2 && cluster.balancer != 0)
        let (a, b, balancer) = (cluster.instances[0], cluster.instances[1], cluster.balancer)

        #expect(try await LiveHTTP.send(a, "POST", "/v1/accounts", json: #"{"username":"noor","password":"cluster pass"}"#)
            .status == 201)
        let first = try await LiveHTTP.login(a, "noor", "cluster pass", deviceName: "Phone").tokens()
        let second = try await LiveHTTP.login(b, "noor", "cluster pass", deviceName: "Laptop").tokens()
        let secondID = try AccountLifecycleLiveTests.sid(second.accessToken)

        // Listed alike on every instance; the balancer forwards the client's address (--trusted-proxy 127.0.0.1).
        for port in [a, b, balancer] {
            let listed = try await LiveHTTP.send(port, "GET", "/v1/sessions", bearer: first.accessToken)
            #expect((listed.object["sessions"] as? [[String: Any]])?.count == 2, "on \(port)")
        }

        // Ended on A: B refuses its refresh token and its access token at once.
        #expect(try await LiveHTTP.send(a, "DELETE", "/v1/sessions/\(secondID)", bearer: first.accessToken).status == 204)
        let refused = try await LiveHTTP.refresh(b, try #require(second.refreshToken))
        #expect(refused.status == 400 && refused.error == "invalid_grant")
        #expect(try await LiveHTTP.send(b, "GET", "/v1/me", bearer: second.accessToken).status == 401)
        #expect(try await LiveHTTP.send(balancer, "GET", "/v1/sessions", bearer: second.accessToken).status == 401)

        // Deleted on B (a step-up there first renews the session A started): gone on A and through the balancer.
        let stepped = try await LiveHTTP.login(b, "noor", "cluster pass", bearer: first.accessToken).tokens()
        #expect(try await LiveHTTP.send(b, "DELETE", "/v1/me", bearer: stepped.accessToken).status == 204)
        let database = try PostgresDatabase(conninfo: cluster.databaseURL, poolSize: 1)
        #expect(try database.account(usernameKey: "noor") == nil)
        #expect(try SchemaCensus.rows(containing: ["noor", AccountLifecycleLiveTests.sid(first.accessToken), secondID],
                                      in: database).isEmpty)
        #expect(try await LiveHTTP.send(a, "GET", "/v1/me", bearer: stepped.accessToken).status == 401)
        #expect(try await LiveHTTP.refresh(a, try #require(stepped.refreshToken)).status == 400)
        #expect(try await LiveHTTP.login(a, "noor", "cluster pass").status == 401)
        #expect(try await LiveHTTP.send(balancer, "DELETE", "/v1/me", bearer: stepped.accessToken).status == 401)
    }
}
