#ifndef LATCHKEY_CTSS2_SHIM_H
#define LATCHKEY_CTSS2_SHIM_H
/*
 * tpm2-tss (Debian's libtss2: ESAPI, the TCTI loader, marshalling, response-code text) for the Linux TPM engine.
 * The TPM2_* and TPMA_* constants are cast macros Swift cannot import, so the structures the engine passes to
 * ESAPI are filled here by static inline functions; the call sequence itself is Swift (LatchkeyTPM).
 */
#include <string.h>
#include <tss2/tss2_esys.h>
#include <tss2/tss2_tctildr.h>
#include <tss2/tss2_mu.h>
#include <tss2/tss2_rc.h>

/* Attributes every Latchkey key shares: made in this TPM, never duplicable, usable with its authValue, exempt from
 * dictionary-attack lockout (its authValue is a 256-bit secret, not a guessable PIN). */
static inline TPMA_OBJECT latchkey_tpm_key_attributes(void) {
    return TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN
        | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_NODA;
}

/* The primary key the package's keys are children of: an ECC P-256 restricted decryption (storage) key in the owner
 * hierarchy. Derived from the TPM's owner seed and this template, so every process gets the same key back on the
 * same TPM (until the owner hierarchy is cleared) and no other TPM can derive it. `label` (at most 32 bytes) goes in
 * unique.x, which makes it distinct from other software's storage keys. */
static inline TPM2B_PUBLIC latchkey_tpm_primary_template(const uint8_t *label, size_t length) {
    TPM2B_PUBLIC t;
    memset(&t, 0, sizeof t);
    t.publicArea.type = TPM2_ALG_ECC;
    t.publicArea.nameAlg = TPM2_ALG_SHA256;
    t.publicArea.objectAttributes = latchkey_tpm_key_attributes() | TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_DECRYPT;
    t.publicArea.parameters.eccDetail.symmetric.algorithm = TPM2_ALG_AES;
    t.publicArea.parameters.eccDetail.symmetric.keyBits.aes = 128;
    t.publicArea.parameters.eccDetail.symmetric.mode.aes = TPM2_ALG_CFB;
    t.publicArea.parameters.eccDetail.scheme.scheme = TPM2_ALG_NULL;
    t.publicArea.parameters.eccDetail.curveID = TPM2_ECC_NIST_P256;
    t.publicArea.parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL;
    if (length > sizeof t.publicArea.unique.ecc.x.buffer) length = sizeof t.publicArea.unique.ecc.x.buffer;
    memcpy(t.publicArea.unique.ecc.x.buffer, label, length);
    t.publicArea.unique.ecc.x.size = (UINT16)length;
    return t;
}

/* What a child key is for: the raw values of LatchkeyTPM's TPMKeyKind. */
enum { LATCHKEY_TPM_SIGNING = 1, LATCHKEY_TPM_KEY_AGREEMENT = 2, LATCHKEY_TPM_SIGNING_AND_KEY_AGREEMENT = 3 };

/* The object attributes of a child key of `kind`: signing keys sign, key-agreement keys decrypt (TPM2_ECDH_ZGen), the
 * third kind does both (Security's Secure Enclave keys sign and agree with one key). */
static inline TPMA_OBJECT latchkey_tpm_child_attributes(int kind) {
    TPMA_OBJECT usage = kind == LATCHKEY_TPM_SIGNING ? TPMA_OBJECT_SIGN_ENCRYPT
        : kind == LATCHKEY_TPM_KEY_AGREEMENT ? TPMA_OBJECT_DECRYPT : (TPMA_OBJECT_SIGN_ENCRYPT | TPMA_OBJECT_DECRYPT);
    return latchkey_tpm_key_attributes() | usage;
}

/* A P-256 child key of `kind`: an ECDSA-SHA256 signing key, an ECDH key, or both — an unrestricted key that signs and
 * decrypts must have the null scheme (TPM 2.0 Part 1, "Both sign and decrypt"), so TPM2_Sign names ECDSA-SHA256 itself. */
static inline TPM2B_PUBLIC latchkey_tpm_p256_template(int kind) {
    TPM2B_PUBLIC t;
    memset(&t, 0, sizeof t);
    t.publicArea.type = TPM2_ALG_ECC;
    t.publicArea.nameAlg = TPM2_ALG_SHA256;
    t.publicArea.objectAttributes = latchkey_tpm_child_attributes(kind);
    t.publicArea.parameters.eccDetail.symmetric.algorithm = TPM2_ALG_NULL;
    if (kind == LATCHKEY_TPM_KEY_AGREEMENT) {
        t.publicArea.parameters.eccDetail.scheme.scheme = TPM2_ALG_ECDH;
        t.publicArea.parameters.eccDetail.scheme.details.ecdh.hashAlg = TPM2_ALG_SHA256;
    } else if (kind == LATCHKEY_TPM_SIGNING) {
        t.publicArea.parameters.eccDetail.scheme.scheme = TPM2_ALG_ECDSA;
        t.publicArea.parameters.eccDetail.scheme.details.ecdsa.hashAlg = TPM2_ALG_SHA256;
    } else {
        t.publicArea.parameters.eccDetail.scheme.scheme = TPM2_ALG_NULL;
    }
    t.publicArea.parameters.eccDetail.curveID = TPM2_ECC_NIST_P256;
    t.publicArea.parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL;
    return t;
}

/* Whether `pub` is a key the engine made: a P-256 key of the kind asked for, with the attributes above (a blob whose
 * public part says otherwise is refused before it reaches the TPM). */
static inline int latchkey_tpm_is_p256_key(const TPM2B_PUBLIC *pub, int kind) {
    const TPMT_PUBLIC *p = &pub->publicArea;
    return p->type == TPM2_ALG_ECC && p->nameAlg == TPM2_ALG_SHA256 && p->objectAttributes == latchkey_tpm_child_attributes(kind)
        && p->parameters.eccDetail.curveID == TPM2_ECC_NIST_P256
        && (p->objectAttributes & TPMA_OBJECT_RESTRICTED) == 0
        && p->unique.ecc.x.size <= 32 && p->unique.ecc.y.size <= 32;
}

/* ECDSA with SHA-256, the scheme of every signature the engine asks for. */
static inline TPMT_SIG_SCHEME latchkey_tpm_ecdsa_sha256_scheme(void) {
    TPMT_SIG_SCHEME s;
    memset(&s, 0, sizeof s);
    s.scheme = TPM2_ALG_ECDSA;
    s.details.ecdsa.hashAlg = TPM2_ALG_SHA256;
    return s;
}

/* The empty hash-check ticket TPM2_Sign takes for an unrestricted key signing an external digest. */
static inline TPMT_TK_HASHCHECK latchkey_tpm_null_ticket(void) {
    TPMT_TK_HASHCHECK t;
    memset(&t, 0, sizeof t);
    t.tag = TPM2_ST_HASHCHECK;
    t.hierarchy = TPM2_RH_NULL;
    return t;
}

/* An ECDSA signature's r and s (big-endian, possibly shorter than 32 bytes). */
static inline const TPM2B_ECC_PARAMETER *latchkey_tpm_signature_r(const TPMT_SIGNATURE *s) { return &s->signature.ecdsa.signatureR; }
static inline const TPM2B_ECC_PARAMETER *latchkey_tpm_signature_s(const TPMT_SIGNATURE *s) { return &s->signature.ecdsa.signatureS; }
static inline TPMI_ALG_SIG_SCHEME latchkey_tpm_signature_algorithm(const TPMT_SIGNATURE *s) { return s->sigAlg; }

/* TPM2_Startup(CLEAR), and the response codes the engine tells apart (format-one codes without their parameter,
 * handle or session number). */
static inline TPM2_SU latchkey_tpm_startup_clear(void) { return TPM2_SU_CLEAR; }
static inline TSS2_RC latchkey_tpm_rc_initialize(void) { return TPM2_RC_INITIALIZE; }
static inline TSS2_RC latchkey_tpm_rc_base(TSS2_RC rc) {
    TSS2_RC layer = rc & TSS2_RC_LAYER_MASK;
    TSS2_RC code = rc & ~TSS2_RC_LAYER_MASK;
    if (layer != TSS2_TPM_RC_LAYER) return rc;
    return (code & TPM2_RC_FMT1) ? (code & (TPM2_RC_FMT1 | 0x3f)) : code;
}
static inline TSS2_RC latchkey_tpm_rc_auth_fail(void) { return TPM2_RC_AUTH_FAIL; }
static inline TSS2_RC latchkey_tpm_rc_bad_auth(void) { return TPM2_RC_BAD_AUTH; }
static inline TSS2_RC latchkey_tpm_rc_integrity(void) { return TPM2_RC_INTEGRITY; }
static inline TSS2_RC latchkey_tpm_rc_object_memory(void) { return TPM2_RC_OBJECT_MEMORY; }
static inline TSS2_RC latchkey_tpm_rc_retry(void) { return TPM2_RC_RETRY; }
static inline TSS2_RC latchkey_tpm_rc_yielded(void) { return TPM2_RC_YIELDED; }
static inline TSS2_RC latchkey_tpm_rc_testing(void) { return TPM2_RC_TESTING; }
static inline TSS2_RC latchkey_tpm_rc_layer(TSS2_RC rc) { return rc & TSS2_RC_LAYER_MASK; }
static inline TSS2_RC latchkey_tpm_layer_tpm(void) { return TSS2_TPM_RC_LAYER; }

/* An HMAC session salted with the primary key, AES-128-CFB parameter encryption, SHA-256: the session's symmetric
 * definition, type, hash, and its attributes (kept across commands; the first command parameter and/or the first
 * response parameter encrypted). */
static inline TPMT_SYM_DEF latchkey_tpm_session_symmetric(void) {
    TPMT_SYM_DEF d;
    memset(&d, 0, sizeof d);
    d.algorithm = TPM2_ALG_AES;
    d.keyBits.aes = 128;
    d.mode.aes = TPM2_ALG_CFB;
    return d;
}
static inline TPM2_SE latchkey_tpm_session_hmac(void) { return TPM2_SE_HMAC; }
static inline TPMI_ALG_HASH latchkey_tpm_alg_sha256(void) { return TPM2_ALG_SHA256; }
static inline TPMA_SESSION latchkey_tpm_session_attributes(int encryptCommand, int encryptResponse) {
    return TPMA_SESSION_CONTINUESESSION | (encryptCommand ? TPMA_SESSION_DECRYPT : 0)
        | (encryptResponse ? TPMA_SESSION_ENCRYPT : 0);
}

/* TPM2_GetCapability(TPM_PROPERTIES) of the manufacturer and the firmware version, and reading one property back. */
static inline TPM2_CAP latchkey_tpm_cap_tpm_properties(void) { return TPM2_CAP_TPM_PROPERTIES; }
static inline TPM2_PT latchkey_tpm_pt_manufacturer(void) { return TPM2_PT_MANUFACTURER; }
static inline TPM2_PT latchkey_tpm_pt_firmware_version_1(void) { return TPM2_PT_FIRMWARE_VERSION_1; }
static inline int latchkey_tpm_property(const TPMS_CAPABILITY_DATA *d, TPM2_PT property, UINT32 *value) {
    if (d->capability != TPM2_CAP_TPM_PROPERTIES) return 0;
    for (UINT32 i = 0; i < d->data.tpmProperties.count && i < TPM2_MAX_TPM_PROPERTIES; i++) {
        if (d->data.tpmProperties.tpmProperty[i].property == property) {
            *value = d->data.tpmProperties.tpmProperty[i].value;
            return 1;
        }
    }
    return 0;
}

#endif
