import Foundation

/// Where a sign-in request came from, as the session list shows it, and the session a step-up re-authenticates.
public struct SignInContext: Sendable {
    /// The client's name for the device (already `DeviceName.validated`), if it gave one.
    public var deviceName: String?
    /// The request's User-Agent, as stored (`DeviceName.userAgent`).
    public var userAgent: String?
    /// The client's address (after the `--trusted-proxy` rules).
    public var clientAddress: String?
    /// The verified claims of the request's Bearer token (`AuthService.stepUpClaims(_:)`): the sign-in renews that
    /// session instead of starting one. Nil for a new session.
    public var reauthenticating: AccessTokenClaims?

    public init(deviceName: String? = nil, userAgent: String? = nil, clientAddress: String? = nil,
                reauthenticating: AccessTokenClaims? = nil) {
        self.deviceName = deviceName
        self.userAgent = DeviceName.userAgent(userAgent)
        self.clientAddress = clientAddress
        self.reauthenticating = reauthenticating
    }
}
