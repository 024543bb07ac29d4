import Foundation
import LatchkeyAuthCore
import LatchkeyOpenSSL
import LatchkeySupport
import LatchkeyTPM
import LocalAuthentication

/// What the two kinds of `SecureEnclave.P256` key share: the TPM key, its access control, the `LAContext` given when it
/// was made or loaded, and the TPM it lives in.
///
/// The gate is cryptographic. A key whose access control has constraints is made with a random 256-bit TPM
/// authorization value; the value is kept only wrapped, once per alternative of the access control, under a key
/// derived from that alternative's protection-domain secrets — which `AuthenticationContext.releaseSecret(for:)`
/// gives only after the matching evaluation, as for access-controlled keychain items. Each use releases the secrets
/// (evaluating first when the context has not), unwraps the value and hands it to the TPM, which refuses the key
/// without it. A `.biometryCurrentSet` secret changes with every enrolment change, so such a key's wrapping no longer
/// opens: the key is dead, as on Apple platforms.
///
/// `Security`'s Secure Enclave `SecKey` is one of these too (of the kind that signs and agrees), so both frameworks
/// share one gate and one TPM engine.
package struct SecureEnclaveKey: Sendable {
    let blob: SecureEnclaveKeyBlob
    package let dataRepresentation: Data
    /// `LAContext` is not Sendable (as Apple declares it): unchecked here as in Apple's Secure Enclave keys, which hold
    /// theirs and are Sendable — the Linux one's state is its `Sendable` authentication context, and the reason the
    /// app sets before using the key.
    nonisolated(unsafe) package let context: LAContext?
    let tpm: TPMSelection
    /// What a prompt for this key says (`kSecUseOperationPrompt`); nil: the context's `localizedReason`, else a default.
    package var operationPrompt: String?

    /// x963 public key (04 ‖ x ‖ y).
    package var x963PublicKey: Data { blob.tpmKey.x963PublicKey }

    /// The access control the key was made with.
    package var access: SecureEnclaveAccess { blob.access }

    private static let wrapInfo = Data("latchkey secure enclave authorization v1".utf8)

    /// A new key of `kind` in the TPM of the calling task, with `access`.
    package init(kind: TPMKeyKind, compactRepresentable: Bool, access: SecureEnclaveAccess, context: LAContext?) throws {
        let tpm = LatchkeySecureEnclaveConfiguration.selection
        guard tpm.tcti != nil else { throw SecureEnclaveFailure.error(TPMError.unavailable(reason: tpm.description)) }
        var authValue = access.requiresAuthentication ? SodiumRandom.bytes(count: 32) : Data()
        defer { authValue.resetBytes(in: 0..<authValue.count) }
        // The secrets of every alternative, before anything is made: a refused evaluation leaves no key behind.
        let secrets = try Self.secretsForSealing(access, context: context)
        var made: TPMKeyBlob?
        for _ in 0..<64 {
            let candidate = try SecureEnclaveFailure.tpm { () throws(TPMError) in
                try TPMEngine.createKey(kind, authValue: authValue, on: tpm)
            }
            made = candidate
            // As CryptoKit's own keys: with compactRepresentable, one whose public key has a compact form.
            if !compactRepresentable || Self.isCompactRepresentable(candidate.x963PublicKey) { break }
        }
        guard let tpmKey = made else { throw CryptoKitError.underlyingCoreCryptoError(error: SecureEnclaveFailure.parameter) }
        let header = SecureEnclaveKeyBlob.header(tpmKey: tpmKey, access: access)
        var wraps: [SecureEnclaveKeyBlob.Wrap] = []
        for (index, domains) in access.alternatives.enumerated() {
            let salt = SodiumRandom.bytes(count: SecureEnclaveKeyBlob.saltSize)
            let key = Self.wrappingKey(secrets: domains.compactMap { secrets[$0] }, salt: salt)
            let sealed = try AES.GCM.seal(authValue, using: key,
                                          authenticating: SecureEnclaveKeyBlob.associatedData(header: header, index: index,
                                                                                              domains: domains))
            guard let combined = sealed.combined else { throw CryptoKitError.incorrectParameterSize }
            wraps.append(SecureEnclaveKeyBlob.Wrap(domains: domains, salt: salt, sealed: combined))
        }
        blob = SecureEnclaveKeyBlob(tpmKey: tpmKey, access: access, wraps: wraps)
        dataRepresentation = blob.encoded
        self.context = context
        self.tpm = tpm
    }

    /// A key usable as `kind` from its `dataRepresentation`, in the TPM of the calling task: checked to load there
    /// unless `checkingTPM` is false (a key read from the keychain, whose TPM answers at its first use).
    package init(kind: TPMKeyKind, dataRepresentation: Data, context: LAContext?, checkingTPM: Bool = true) throws {
        guard let blob = SecureEnclaveKeyBlob(decoding: dataRepresentation, usableAs: kind) else {
            throw CryptoKitError.underlyingCoreCryptoError(error: SecureEnclaveFailure.parameter)
        }
        let tpm = LatchkeySecureEnclaveConfiguration.selection
        if checkingTPM {
            try SecureEnclaveFailure.tpm { () throws(TPMError) in try TPMEngine.checkLoads(blob.tpmKey, on: tpm) }
        }
        self.blob = blob
        self.dataRepresentation = Data(dataRepresentation)
        self.context = context
        self.tpm = tpm
    }

    /// ECDSA (r ‖ s) of a 32-byte digest, made by the TPM once the access control is satisfied.
    package func signature(digest: Data) throws -> Data {
        var authValue = try authorization()
        defer { authValue.resetBytes(in: 0..<authValue.count) }
        return try SecureEnclaveFailure.tpm { () throws(TPMError) in
            try TPMEngine.sign(digest: digest, with: blob.tpmKey, authValue: authValue, on: tpm)
        }
    }

    /// The ECDH secret with `peer` (04 ‖ x ‖ y), computed by the TPM once the access control is satisfied.
    package func sharedSecret(peer: Data) throws -> SecretBytes {
        var authValue = try authorization()
        defer { authValue.resetBytes(in: 0..<authValue.count) }
        var secret = try SecureEnclaveFailure.tpm { () throws(TPMError) in
            try TPMEngine.sharedSecret(peer: peer, with: blob.tpmKey, authValue: authValue, on: tpm)
        }
        defer { secret.resetBytes(in: 0..<secret.count) }
        return secret.withUnsafeBytes { SecretBytes(copying: $0) }
    }

    // MARK: - The gate

    /// The TPM authorization value: empty for a key without constraints; otherwise unwrapped with the secrets of the
    /// first alternative the context releases, after evaluating the access control when it releases none.
    private func authorization() throws -> Data {
        let access = blob.access
        guard access.requiresAuthentication else { return Data() }
        guard !blob.wraps.isEmpty else {
            // Every alternative needs what this machine cannot prove (a companion device).
            throw CryptoKitError.underlyingCoreCryptoError(error: SecureEnclaveFailure.authenticationFailed)
        }
        let context = (self.context ?? LAContext()).latchkeyAuthenticationContext
        if let value = try unwrapWithReleasedSecrets(context) { return value }
        try Self.evaluate(access.requirement, context: context, reason: operationPrompt ?? self.context?.localizedReason)
        if let value = try unwrapWithReleasedSecrets(context) { return value }
        throw CryptoKitError.underlyingCoreCryptoError(error: SecureEnclaveFailure.authenticationFailed)
    }

    /// The value unwrapped with the first alternative whose secrets `context` releases now; nil when it releases none.
    /// Throws when an alternative's secrets are released but do not open its wrapping (they changed since the key was
    /// made).
    private func unwrapWithReleasedSecrets(_ context: any AuthenticationContext) throws -> Data? {
        let header = SecureEnclaveKeyBlob.header(tpmKey: blob.tpmKey, access: blob.access)
        var released = false
        for (index, wrap) in blob.wraps.enumerated() {
            var secrets: [Data] = []
            for domain in wrap.domains {
                guard let secret = try? context.releaseSecret(for: domain) else { break }
                secrets.append(secret)
            }
            guard secrets.count == wrap.domains.count else { continue }
            released = true
            let key = Self.wrappingKey(secrets: secrets, salt: wrap.salt)
            let associated = SecureEnclaveKeyBlob.associatedData(header: header, index: index, domains: wrap.domains)
            if let box = try? AES.GCM.SealedBox(combined: wrap.sealed),
               let value = try? AES.GCM.open(box, using: key, authenticating: associated) {
                return value
            }
        }
        if released { throw CryptoKitError.underlyingCoreCryptoError(error: SecureEnclaveFailure.authenticationFailed) }
        return nil
    }

    /// The secret of every domain `access` names, evaluating once when the context does not release them all yet.
    private static func secretsForSealing(_ access: SecureEnclaveAccess, context given: LAContext?) throws -> [ProtectionDomain: Data] {
        let requirement = access.sealingRequirement
        guard let domains = requirement.alternatives.first else { return [:] }
        let context = (given ?? LAContext()).latchkeyAuthenticationContext
        func release() -> [ProtectionDomain: Data]? {
            var out: [ProtectionDomain: Data] = [:]
            for domain in domains {
                guard let secret = try? context.releaseSecret(for: domain) else { return nil }
                out[domain] = secret
            }
            return out
        }
        if let secrets = release() { return secrets }
        try evaluate(requirement, context: context, reason: given?.localizedReason)
        if let secrets = release() { return secrets }
        throw CryptoKitError.underlyingCoreCryptoError(error: SecureEnclaveFailure.authenticationFailed)
    }

    /// Proves `requirement` with `context`, waiting for the prompt as Apple's synchronous key operations do.
    private static func evaluate(_ requirement: AccessRequirement, context: any AuthenticationContext, reason: String?) throws {
        let text = reason.flatMap { $0.isEmpty ? nil : $0 }
            ?? MessageLanguage.current.pick(english: "use a key kept in the secure hardware",
                                            korean: "보안 하드웨어에 보관된 키 사용")
        do throws(AuthenticationError) {
            try waitForTask { () async throws(AuthenticationError) in try await context.evaluate(requirement, reason: text) }
        } catch {
            throw SecureEnclaveFailure.error(error)
        }
    }

    /// HKDF-SHA256 of an alternative's secrets (concatenated in the alternative's order), with the wrap's salt.
    private static func wrappingKey(secrets: [Data], salt: Data) -> SymmetricKey {
        var material = secrets.reduce(Data(), +)
        defer { material.resetBytes(in: 0..<material.count) }
        return HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: material), salt: salt, info: wrapInfo,
                                      outputByteCount: 32)
    }

    private static func isCompactRepresentable(_ x963: Data) -> Bool {
        (try? P256.Signing.PublicKey(x963Representation: x963))?.compactRepresentation != nil
    }
}

extension SecureEnclaveKey {
    /// A new key that both signs and agrees, in the TPM of the calling task: what `Security` makes for
    /// `SecKeyCreateRandomKey` with `kSecAttrTokenIDSecureEnclave` (Apple's Secure Enclave keys do both).
    package init(signingAndKeyAgreement access: SecureEnclaveAccess, context: LAContext?) throws {
        try self.init(kind: .signingAndKeyAgreement, compactRepresentable: false, access: access, context: context)
    }

    /// Such a key from its `dataRepresentation` (a keychain item's value), without asking the TPM: a blob another TPM
    /// made fails at its first use.
    package init(signingAndKeyAgreementBlob dataRepresentation: Data, context: LAContext?) throws {
        try self.init(kind: .signingAndKeyAgreement, dataRepresentation: dataRepresentation, context: context,
                      checkingTPM: false)
    }
}
