import LatchkeyTestSupport
import Testing

/// The Keychain Services conformance table (docs/conformance) run against every Linux store through the `Security`
/// facade. Serialized: the `SecItem…` functions use one store and one `LAContext` factory for the whole process.
@Suite(.serialized, .offCooperativePool) struct KeychainConformance {}
