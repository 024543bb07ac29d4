#if os(Linux)
import Foundation
import LatchkeyAuthCore

/// `LADomainState` (iOS 18, macOS 15): the state of the authentication domains a context can evaluate. Linux has the
/// biometry domain of the configured backend; no companion devices. Not `Sendable`, as Apple's (LADomainState.h).
@available(macOS 15.0, iOS 18.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
open class LADomainState: NSObject {
    /// The biometry domain.
    public let biometry: LADomainStateBiometry
    /// The companion domain (always empty on Linux).
    @available(visionOS, unavailable)
    public let companion: LADomainStateCompanion

    init(context: any AuthenticationContext) {
        biometry = LADomainStateBiometry(biometryType: LABiometryType(context.biometryType), stateHash: context.domainState)
        companion = LADomainStateCompanion()
        super.init()
    }

    /// A hash of every domain's state; changes whenever one of them does.
    open var stateHash: Data? { biometry.stateHash }
}

/// `LADomainStateBiometry`: the enrolled biometry and a hash that changes whenever enrolment does.
@available(macOS 15.0, iOS 18.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
open class LADomainStateBiometry: NSObject {
    /// The kind of sensor.
    public let biometryType: LABiometryType
    /// A hash of the enrolment (nil without enrolled biometry).
    public let stateHash: Data?

    init(biometryType: LABiometryType, stateHash: Data?) {
        self.biometryType = biometryType
        self.stateHash = stateHash
        super.init()
    }
}

/// `LADomainStateCompanion`: paired companion devices (none on Linux).
@available(macOS 15.0, iOS 18.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
open class LADomainStateCompanion: NSObject {
    /// Nil: no companion devices.
    open var stateHash: Data? { nil }
}

extension LAContext {
    /// The state of the authentication domains (the iOS 18 replacement of `evaluatedPolicyDomainState`).
    @available(macOS 15.0, iOS 18.0, *)
    @available(watchOS, unavailable)
    public var domainState: LADomainState { LADomainState(context: latchkeyAuthenticationContext) }
}
#endif
