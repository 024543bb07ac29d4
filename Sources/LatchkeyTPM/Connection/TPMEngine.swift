import CTSS2
import Foundation
import LatchkeySupport

/// The TPM 2.0 engine below the Linux `CryptoKit`'s `SecureEnclave`: P-256 keys made and used inside a TPM through
/// tpm2-tss's ESAPI (no TPM command is encoded here). Every operation opens its own connection to the selected TPM,
/// loads the package's primary key (a storage key of the owner hierarchy, the same on every call on the same TPM),
/// loads the child key under it, runs one command and flushes everything. Operations of this process are serialized.
///
/// The primary key is derived (TPM2_CreatePrimary) once per TPM and process, then saved (TPM2_ContextSave: a blob the
/// TPM encrypts and integrity-protects, valid until the TPM is reset) and loaded from that blob by later operations
/// (TPM2_ContextLoad, about a tenth of the derivation's cost on swtpm); a blob the TPM no longer accepts is dropped and
/// the key derived again.
package enum TPMEngine {
    /// The primary key's `unique.x`: keys of this package are children of a storage key no other software derives.
    private static let primaryLabel = Array("latchkey secure enclave v1".utf8)
    private static let serial = Locked(())
    /// Saved contexts of the primary key, by TCTI configuration (marshalled `TPMS_CONTEXT`).
    private static let savedPrimaries = Locked<[String: Data]>([:])

    /// `"IBM, firmware 0x…"`-like text when the TPM answers; the reason otherwise.
    package static func probe(_ selection: TPMSelection) -> Result<String, TPMError> {
        do throws(TPMError) {
            return .success(try run(selection) { connection throws(TPMError) in try describe(connection) })
        } catch {
            return .failure(error)
        }
    }

    /// A new P-256 key of `kind` whose use needs `authValue` (empty: none), made inside the TPM.
    package static func createKey(_ kind: TPMKeyKind, authValue: Data, on selection: TPMSelection) throws(TPMError) -> TPMKeyBlob {
        guard authValue.count <= 32 else { throw .invalidParameter("an authorization value longer than 32 bytes") }
        return try run(selection) { connection throws(TPMError) in
            let primary = try loadPrimary(connection)
            // The new key's authValue is the command's first parameter: encrypted by a salted session when there is one.
            let session = authValue.isEmpty ? ESYS_TR(ESYS_TR_PASSWORD)
                : try startSession(connection, saltedWith: primary, encryptCommand: true, encryptResponse: false)
            var sensitive = TPM2B_SENSITIVE_CREATE()
            defer { TPMBytes.wipe(&sensitive) }
            sensitive.sensitive.userAuth.size = TPMBytes.store(authValue, into: &sensitive.sensitive.userAuth.buffer) ?? 0
            var template = latchkey_tpm_p256_template(kind.template)
            var outside = TPM2B_DATA()
            var pcrs = TPML_PCR_SELECTION()
            var outPrivate: UnsafeMutablePointer<TPM2B_PRIVATE>?
            var outPublic: UnsafeMutablePointer<TPM2B_PUBLIC>?
            let rc = Esys_Create(connection.context, primary, session, ESYS_TR(ESYS_TR_NONE),
                                 ESYS_TR(ESYS_TR_NONE), &sensitive, &template, &outside, &pcrs,
                                 &outPrivate, &outPublic, nil, nil, nil)
            defer {
                Esys_Free(outPrivate)
                Esys_Free(outPublic)
            }
            try check(rc, "TPM2_Create")
            guard let outPrivate, let outPublic else { throw .failed(operation: "TPM2_Create", code: 0, text: "no key returned") }
            return try TPMKeyBlob(kind: kind, public: outPublic, private: outPrivate)
        }
    }

    /// Loads `key` under the primary key and flushes it: throws `.foreignKey` when this TPM did not make it.
    package static func checkLoads(_ key: TPMKeyBlob, on selection: TPMSelection) throws(TPMError) {
        try run(selection) { connection throws(TPMError) in
            let (handle, _) = try load(key, connection)
            connection.flush(handle)
        }
    }

    /// The ECDSA signature (r ‖ s, 64 bytes) of a SHA-256 `digest` with `key`, authorized by `authValue`.
    package static func sign(digest: Data, with key: TPMKeyBlob, authValue: Data, on selection: TPMSelection) throws(TPMError) -> Data {
        guard key.kind.signs else { throw .invalidParameter("a key-agreement key cannot sign") }
        guard digest.count == 32 else { throw .invalidParameter("a SHA-256 digest is 32 bytes, not \(digest.count)") }
        return try run(selection) { connection throws(TPMError) in
            let (handle, _) = try load(key, connection)
            try authorize(handle, authValue, connection)
            // An authValue is proven with an HMAC (keyed by it), never sent; none needs no session.
            let session = authValue.isEmpty ? ESYS_TR(ESYS_TR_PASSWORD)
                : try startSession(connection, saltedWith: nil, encryptCommand: false, encryptResponse: false)
            var message = TPM2B_DIGEST()
            message.size = TPMBytes.store(digest, into: &message.buffer) ?? 0
            var scheme = latchkey_tpm_ecdsa_sha256_scheme()
            var ticket = latchkey_tpm_null_ticket()
            var signature: UnsafeMutablePointer<TPMT_SIGNATURE>?
            let rc = Esys_Sign(connection.context, handle, session, ESYS_TR(ESYS_TR_NONE),
                               ESYS_TR(ESYS_TR_NONE), &message, &scheme, &ticket, &signature)
            defer { Esys_Free(signature) }
            try check(rc, "TPM2_Sign", authorizing: true)
            guard let signature, let rPointer = latchkey_tpm_signature_r(signature),
                  let sPointer = latchkey_tpm_signature_s(signature) else {
                throw .failed(operation: "TPM2_Sign", code: 0, text: "no signature returned")
            }
            let r = rPointer.pointee, s = sPointer.pointee
            guard let rBytes = TPMBytes.padded(TPMBytes.load(r.buffer, count: r.size), to: 32),
                  let sBytes = TPMBytes.padded(TPMBytes.load(s.buffer, count: s.size), to: 32) else {
                throw .failed(operation: "TPM2_Sign", code: 0, text: "a signature half longer than 32 bytes")
            }
            return rBytes + sBytes
        }
    }

    /// The ECDH shared secret (the x-coordinate, 32 bytes) of `key` and the peer's uncompressed point `peer`
    /// (04 ‖ x ‖ y), authorized by `authValue`. The TPM checks that the point is on the curve.
    package static func sharedSecret(peer: Data, with key: TPMKeyBlob, authValue: Data, on selection: TPMSelection) throws(TPMError) -> Data {
        guard key.kind.agrees else { throw .invalidParameter("a signing key cannot agree on a secret") }
        guard peer.count == 65, peer.first == 0x04 else { throw .invalidParameter("a P-256 point is 65 bytes, 04 ‖ x ‖ y") }
        return try run(selection) { connection throws(TPMError) in
            let (handle, primary) = try load(key, connection)
            try authorize(handle, authValue, connection)
            // The shared point is the response's first parameter: encrypted by a salted session.
            let session = try startSession(connection, saltedWith: primary, encryptCommand: false, encryptResponse: true)
            var point = TPM2B_ECC_POINT()
            point.point.x.size = TPMBytes.store(peer[1..<33], into: &point.point.x.buffer) ?? 0
            point.point.y.size = TPMBytes.store(peer[33..<65], into: &point.point.y.buffer) ?? 0
            point.size = UInt16(MemoryLayout<UInt16>.size * 2 + 64)
            var out: UnsafeMutablePointer<TPM2B_ECC_POINT>?
            let rc = Esys_ECDH_ZGen(connection.context, handle, session, ESYS_TR(ESYS_TR_NONE),
                                    ESYS_TR(ESYS_TR_NONE), &point, &out)
            defer {
                if let out { TPMBytes.wipe(&out.pointee) }
                Esys_Free(out)
            }
            if latchkey_tpm_rc_layer(rc) == latchkey_tpm_layer_tpm(), rc != 0,
               latchkey_tpm_rc_base(rc) != latchkey_tpm_rc_bad_auth(), latchkey_tpm_rc_base(rc) != latchkey_tpm_rc_auth_fail(),
               !isTransient(rc) {
                throw .invalidParameter("the TPM refused the peer's point: \(TPMConnection.text(rc))")
            }
            try check(rc, "TPM2_ECDH_ZGen", authorizing: true)
            guard let out else { throw .failed(operation: "TPM2_ECDH_ZGen", code: 0, text: "no point returned") }
            let x = out.pointee.point.x
            guard let secret = TPMBytes.padded(TPMBytes.load(x.buffer, count: x.size), to: 32) else {
                throw .failed(operation: "TPM2_ECDH_ZGen", code: 0, text: "a coordinate longer than 32 bytes")
            }
            return secret
        }
    }

    // MARK: - One operation

    /// Runs `body` on a new connection to `selection`'s TPM, serialized with the process's other operations. A TPM that
    /// was never started (a fresh swtpm) is started and the operation retried; a TPM that is busy or out of object
    /// slots (another client of a TPM without resource manager) is retried for up to about two seconds.
    private static func run<T>(_ selection: TPMSelection, _ body: (TPMConnection) throws(TPMError) -> T) throws(TPMError) -> T {
        guard let tcti = selection.tcti else {
            if case let .none(reason) = selection.source { throw .unavailable(reason: reason) }
            throw .unavailable(reason: "no TPM selected")
        }
        return try serial.withLock { _ throws(TPMError) -> T in
            var started = false
            var attempt = 0
            while true {
                let connection = try TPMConnection(tcti: tcti)
                do throws(TPMError) {
                    return try body(connection)
                } catch let .failed(operation, code, text) {
                    if code == latchkey_tpm_rc_initialize(), !started {
                        started = true
                        let rc = Esys_Startup(connection.context, latchkey_tpm_startup_clear())
                        if rc != 0, latchkey_tpm_rc_base(rc) != latchkey_tpm_rc_initialize() {
                            throw .failed(operation: "TPM2_Startup", code: rc, text: TPMConnection.text(rc))
                        }
                        continue
                    }
                    if isTransient(code), attempt < 200 {
                        attempt += 1
                        usleep(10_000)
                        continue
                    }
                    throw .failed(operation: operation, code: code, text: text)
                }
            }
        }
    }

    private static func isTransient(_ rc: TSS2_RC) -> Bool {
        guard latchkey_tpm_rc_layer(rc) == latchkey_tpm_layer_tpm() else { return false }
        let base = latchkey_tpm_rc_base(rc)
        return base == latchkey_tpm_rc_object_memory() || base == latchkey_tpm_rc_retry()
            || base == latchkey_tpm_rc_yielded() || base == latchkey_tpm_rc_testing()
    }

    /// Throws for a failed response: `.authorizationFailed` for a refused authValue where `authorizing`.
    private static func check(_ rc: TSS2_RC, _ operation: String, authorizing: Bool = false) throws(TPMError) {
        guard rc != 0 else { return }
        let base = latchkey_tpm_rc_base(rc)
        if authorizing, latchkey_tpm_rc_layer(rc) == latchkey_tpm_layer_tpm(),
           base == latchkey_tpm_rc_bad_auth() || base == latchkey_tpm_rc_auth_fail() {
            throw .authorizationFailed
        }
        let code = latchkey_tpm_rc_layer(rc) == latchkey_tpm_layer_tpm() && base == latchkey_tpm_rc_initialize() ? base : rc
        throw .failed(operation: operation, code: code, text: TPMConnection.text(rc))
    }

    /// The primary key, loaded from its saved context when the TPM still accepts it, else derived and saved.
    private static func loadPrimary(_ connection: TPMConnection) throws(TPMError) -> ESYS_TR {
        if let saved = savedPrimaries.withLock({ $0[connection.configuration] }) {
            var context = TPMS_CONTEXT()
            var offset = 0
            let parsed = saved.withUnsafeBytes { raw in
                Tss2_MU_TPMS_CONTEXT_Unmarshal(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &offset, &context)
            }
            var handle = ESYS_TR(ESYS_TR_NONE)
            let rc = parsed == 0 ? Esys_ContextLoad(connection.context, &context, &handle) : parsed
            if rc == 0 {
                connection.track(handle)
                return handle
            }
            if isTransient(rc) { throw .failed(operation: "TPM2_ContextLoad", code: rc, text: TPMConnection.text(rc)) }
            savedPrimaries.withLock { _ = $0.removeValue(forKey: connection.configuration) }
        }
        let handle = try createPrimary(connection)
        var saved: UnsafeMutablePointer<TPMS_CONTEXT>?
        if Esys_ContextSave(connection.context, handle, &saved) == 0, let saved {
            defer { Esys_Free(saved) }
            var buffer = [UInt8](repeating: 0, count: MemoryLayout<TPMS_CONTEXT>.size + 16)
            var offset = 0
            if buffer.withUnsafeMutableBufferPointer({ Tss2_MU_TPMS_CONTEXT_Marshal(saved, $0.baseAddress, $0.count, &offset) }) == 0 {
                savedPrimaries.withLock { $0[connection.configuration] = Data(buffer.prefix(offset)) }
            }
        }
        return handle
    }

    private static func createPrimary(_ connection: TPMConnection) throws(TPMError) -> ESYS_TR {
        var template = primaryLabel.withUnsafeBufferPointer { latchkey_tpm_primary_template($0.baseAddress, $0.count) }
        var sensitive = TPM2B_SENSITIVE_CREATE()
        var outside = TPM2B_DATA()
        var pcrs = TPML_PCR_SELECTION()
        var handle = ESYS_TR(ESYS_TR_NONE)
        let rc = Esys_CreatePrimary(connection.context, ESYS_TR(ESYS_TR_RH_OWNER), ESYS_TR(ESYS_TR_PASSWORD),
                                    ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &sensitive, &template, &outside, &pcrs,
                                    &handle, nil, nil, nil, nil)
        try check(rc, "TPM2_CreatePrimary (owner hierarchy)")
        connection.track(handle)
        return handle
    }

    /// The key loaded under the primary key: its handle, and the primary's.
    private static func load(_ key: TPMKeyBlob, _ connection: TPMConnection) throws(TPMError) -> (key: ESYS_TR, primary: ESYS_TR) {
        let primary = try loadPrimary(connection)
        var pub = try key.publicStructure
        var priv = try key.privateStructure
        var handle = ESYS_TR(ESYS_TR_NONE)
        let rc = Esys_Load(connection.context, primary, ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE),
                           ESYS_TR(ESYS_TR_NONE), &priv, &pub, &handle)
        if rc != 0, latchkey_tpm_rc_layer(rc) == latchkey_tpm_layer_tpm(), !isTransient(rc),
           latchkey_tpm_rc_base(rc) != latchkey_tpm_rc_initialize() {
            // The private area does not decrypt or verify under this TPM's primary key.
            throw .foreignKey
        }
        try check(rc, "TPM2_Load")
        connection.track(handle)
        return (handle, primary)
    }

    /// An HMAC session: the authorizing entity's authValue is proven with an HMAC instead of being sent, and the
    /// command's or the response's first parameter travels AES-128-CFB-encrypted where asked. Salted with the primary key
    /// (a secret only the TPM and this process know, for what no authValue protects: a new key's authValue, an ECDH
    /// point) or not (the HMAC is keyed by the key's own 256-bit authValue). So neither an authValue nor an ECDH secret
    /// crosses the TCTI — a socket, the kernel, the bus to the chip — in the clear. A salted session costs about three
    /// times an unsalted one on swtpm (an ECDH on each side), so it is used where it protects something.
    private static func startSession(_ connection: TPMConnection, saltedWith primary: ESYS_TR?, encryptCommand: Bool,
                                     encryptResponse: Bool) throws(TPMError) -> ESYS_TR {
        var symmetric = latchkey_tpm_session_symmetric()
        var session = ESYS_TR(ESYS_TR_NONE)
        let rc = Esys_StartAuthSession(connection.context, primary ?? ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                       ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), nil, latchkey_tpm_session_hmac(),
                                       &symmetric, latchkey_tpm_alg_sha256(), &session)
        try check(rc, "TPM2_StartAuthSession")
        connection.track(session)
        let attributes = latchkey_tpm_session_attributes(encryptCommand ? 1 : 0, encryptResponse ? 1 : 0)
        try check(Esys_TRSess_SetAttributes(connection.context, session, attributes, 0xff), "Esys_TRSess_SetAttributes")
        return session
    }

    private static func authorize(_ handle: ESYS_TR, _ authValue: Data, _ connection: TPMConnection) throws(TPMError) {
        var auth = TPM2B_AUTH()
        defer { TPMBytes.wipe(&auth) }
        guard let size = TPMBytes.store(authValue, into: &auth.buffer) else {
            throw .invalidParameter("an authorization value longer than 32 bytes")
        }
        auth.size = size
        try check(Esys_TR_SetAuth(connection.context, handle, &auth), "Esys_TR_SetAuth")
    }

    private static func describe(_ connection: TPMConnection) throws(TPMError) -> String {
        var more: TPMI_YES_NO = 0
        var data: UnsafeMutablePointer<TPMS_CAPABILITY_DATA>?
        let rc = Esys_GetCapability(connection.context, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
                                    latchkey_tpm_cap_tpm_properties(), latchkey_tpm_pt_manufacturer(), 8, &more, &data)
        defer { Esys_Free(data) }
        try check(rc, "TPM2_GetCapability")
        guard let data else { return "TPM 2.0" }
        var manufacturer: UInt32 = 0, firmware: UInt32 = 0
        var parts: [String] = []
        if latchkey_tpm_property(data, latchkey_tpm_pt_manufacturer(), &manufacturer) == 1 {
            let bytes = withUnsafeBytes(of: manufacturer.bigEndian) { Array($0) }.filter { $0 >= 0x20 && $0 < 0x7f }
            parts.append("manufacturer " + String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces))
        }
        if latchkey_tpm_property(data, latchkey_tpm_pt_firmware_version_1(), &firmware) == 1 {
            parts.append("firmware 0x" + String(firmware, radix: 16))
        }
        return parts.isEmpty ? "TPM 2.0" : "TPM 2.0, " + parts.joined(separator: ", ")
    }
}
