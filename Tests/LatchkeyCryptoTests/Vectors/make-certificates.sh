#!/usr/bin/env bash
# Writes certificates.pem: the certificates the repository's tests make with the `openssl` command (TestPKI recipes
# of LatchkeyServerTests and CompatibilityTests, one of each kind), plus a few shapes they do not (v1, other string
# types, GeneralizedTime, RSA-PSS, Netscape cert type, key usage without keyCertSign), for CertificateParsingTests
# (which builds UniversalString and other shapes `openssl req` cannot write itself).
# The W3C §16 test-vector certificates (extracted from the vectors' attestation objects) are kept at the top of the
# file by hand. Run from this directory: ./make-certificates.sh >> certificates.pem (then review).
set -euo pipefail
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
o() { openssl "$@" 2>/dev/null; }
ec=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)
emit() { echo; echo "$1"; o x509 -in "$2" -outform PEM; }
sign() { # name subject extfile [ca] [extra x509 args...]
    local name=$1 subject=$2 ext=$3 ca=${4:-ca}; shift 4 || shift $#
    o req -new "${ec[@]}" -keyout "$name.key" -subj "$subject" -out "$name.csr"
    o x509 -req -in "$name.csr" -CA "$ca.pem" -CAkey "$ca.key" -CAcreateserial -days 365 -extfile "$ext" -out "$name.pem" "$@"
}
ext() { printf '%b' "$2" > "$1"; }

# LatchkeyServerTests TestPKI root, and the leaves its tests make.
o req -x509 "${ec[@]}" -keyout ca.key -out ca.pem -days 3650 -subj "/C=KR/O=Latchkey Test/CN=Latchkey Test Root" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
emit "attestation test root (TestPKI)" ca.pem
ext aik.ext 'subjectAltName=critical,dirName:tpm_dn\nextendedKeyUsage=2.23.133.8.3\nbasicConstraints=critical,CA:FALSE\n1.3.6.1.4.1.45724.1.1.4=DER:041000000000000000000000000000000000\n[tpm_dn]\na.2.23.133.2.1=id:FFFFF1D0\nb.2.23.133.2.2=NPCT75x\nc.2.23.133.2.3=id:0007\n'
sign aik / aik.ext ca
emit "TPM AIK: empty subject, critical SAN directoryName, EKU tcg-kp-AIKCertificate, AAGUID (TPMAttestationTests)" aik.pem
ext aiknc.ext 'subjectAltName=dirName:tpm_dn\nbasicConstraints=critical,CA:TRUE\n[tpm_dn]\na.2.23.133.2.1=id:FFFFF1D0\n'
sign aiknc /CN=AIK aiknc.ext ca
emit "TPM AIK variant: named subject, non-critical SAN, CA:TRUE, no EKU (TPMAttestationTests)" aiknc.pem
ext ak.ext 'basicConstraints=CA:FALSE\n1.3.6.1.4.1.11129.2.1.17=DER:3024020103 0a0101 020104 0a0101 0410000102030405060708090a0b0c0d0e0f 0400 3000 3000\n'
sed -i 's/ //g' ak.ext
sign ak "/CN=Android Keystore Key" ak.ext ca
emit "android-key leaf with a KeyDescription extension (AndroidAttestationTests)" ak.pem
ext sn.ext 'basicConstraints=CA:FALSE\n'
sign sn "/O=Google LLC/CN=attest.android.com" sn.ext ca
emit "SafetyNet leaf issued to attest.android.com by its CN (AndroidAttestationTests)" sn.pem
ext u2f.ext 'basicConstraints=CA:FALSE\n'
o req -x509 -newkey rsa:2048 -nodes -keyout rsaca.key -out rsaca.pem -days 3650 -subj "/CN=Latchkey Test U2F RSA Root" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
emit "U2F RSA root (WebAuthnU2FQuirkTests)" rsaca.pem
sign u2f "/CN=U2F Quirk Test 0" u2f.ext rsaca
emit "U2F leaf under the RSA root (the quirk is made from it by CertificateParsingTests)" u2f.pem
ext int.ext 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n'
sign mdsint "/C=KR/O=Latchkey Test/CN=Test MDS CA" int.ext ca
emit "MDS intermediate (MetadataServiceTests)" mdsint.pem
o req -new -newkey rsa:2048 -nodes -keyout mds.key -subj "/C=KR/O=Latchkey Test/CN=mds.test" -out mds.csr
ext leaf.ext 'basicConstraints=critical,CA:FALSE\n'
o x509 -req -in mds.csr -CA mdsint.pem -CAkey mdsint.key -CAcreateserial -days 365 -extfile leaf.ext -out mds.pem
emit "MDS RSA leaf (MetadataServiceTests)" mds.pem
sign packed "/C=US/O=Latchkey/OU=Authenticator Attestation/CN=Packed Leaf" leaf.ext ca
emit "packed attestation leaf (MetadataServiceTests, fuzz seed recipe)" packed.pem

# CompatibilityTests TestPKI (SecTrust): intermediate with pathlen, TLS leaves with SAN DNS and IP, EKU.
o req -x509 "${ec[@]}" -keyout root.key -out root.pem -days 3650 -subj "/CN=Latchkey Test Root" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
emit "SecTrust root (CompatibilityTests TestPKI)" root.pem
ext sint.ext 'basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n'
sign sint "/CN=Latchkey Test Intermediate" sint.ext root
emit "SecTrust intermediate, pathlen 0" sint.pem
ext tls.ext 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:leaf.example.test,IP:127.0.0.1\n'
sign tls /CN=leaf.example.test tls.ext sint
emit "SecTrust TLS leaf: SAN DNS and IP, EKU serverAuth" tls.pem
ext client.ext 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n'
sign client /CN=client.example.test client.ext sint
emit "SecTrust client leaf: EKU clientAuth, no SAN" client.pem

# Shapes the tests above do not make.
o req -new "${ec[@]}" -keyout v1.key -subj "/O=Latchkey/CN=Version One" -out v1.csr
o x509 -req -in v1.csr -signkey v1.key -days 30 -out v1.pem
emit "v1 self-signed (no extensions)" v1.pem
o x509 -req -in v1.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 30 -out v1leaf.pem
emit "v1 issued by the test root" v1leaf.pem
printf '[req]\ndistinguished_name=dn\nstring_mask=default\nutf8=yes\nprompt=no\n[dn]\nCN=Ünïcödé Tëst\nO=한국어 조직\nOU=ASCII Unit\nemailAddress=test@example.test\nL=Zürich\nST=Bayern\nC=DE\n' > strings.cnf
o req -x509 "${ec[@]}" -keyout strings.key -config strings.cnf -days 36500 -out strings.pem \
    -addext "subjectAltName=DNS:*.wild.example.test,DNS:exact.example.test,email:a@example.test,URI:https://example.test/x"
emit "TeletexString and BMPString subject, IA5 emailAddress, GeneralizedTime notAfter, wildcard SAN" strings.pem
o req -x509 "${ec[@]}" -keyout multi.key -days 30 -multivalue-rdn -subj "/CN=Multi+serialNumber=42/O=Latchkey/DC=example/DC=test" -out multi.pem \
    -addext "keyUsage=digitalSignature" -addext "basicConstraints=CA:TRUE"
emit "multi-valued RDN, domainComponent; CA:TRUE but key usage without keyCertSign" multi.pem
ext kuonly.ext 'keyUsage=keyCertSign,cRLSign\n'
sign kuonly "/CN=Key Usage Only" kuonly.ext ca
emit "no basic constraints, key usage with keyCertSign" kuonly.pem
ext ns.ext 'nsCertType=sslCA\n'
sign ns "/CN=Netscape CA" ns.ext ca
emit "no basic constraints, Netscape cert type sslCA" ns.pem
ext neg.ext 'basicConstraints=DER:30060101ff0201ff\n'
sign neg "/CN=Negative Path Length" neg.ext ca
emit "basic constraints CA with a negative path length" neg.pem
ext emptyku.ext 'keyUsage=DER:030100\n'
sign emptyku "/CN=Empty Key Usage" emptyku.ext ca
emit "key usage with no bits" emptyku.pem
ext wild.ext 'subjectAltName=DNS:*.example.test,DNS:f*.example.test,DNS:*.test,DNS:xn--bcher-kva.example.test,DNS:*.xn--bcher-kva.example.test,IP:::1\n'
sign wild "/CN=*.cn.example.test" wild.ext ca
emit "wildcard SAN patterns (full-label, partial, too short, IDNA)" wild.pem
ext cnwild.ext 'basicConstraints=CA:FALSE\n'
sign cnwild "/CN=*.cn.example.test/CN=second.example.test" cnwild.ext ca
emit "no SAN: two wildcard and plain common names" cnwild.pem
o req -x509 -newkey rsa:2048 -nodes -keyout pss.key -days 30 -subj "/CN=RSA-PSS" -out pss.pem -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:32
emit "RSA key, RSASSA-PSS signature with parameters" pss.pem
o req -x509 -newkey ed25519 -nodes -keyout ed.key -days 30 -subj "/CN=Ed25519" -out ed.pem
emit "Ed25519" ed.pem
o req -new "${ec[@]}" -keyout old.key -subj "/CN=Old Times" -out old.csr
printf '[ca]\ndefault_ca=t\n[t]\ndatabase=index.txt\nnew_certs_dir=.\nserial=serial.txt\ndefault_md=sha256\npolicy=any\nunique_subject=no\n[any]\ncommonName=supplied\n' > ca.cnf
: > index.txt; echo 10 > serial.txt
o ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in old.csr -out old.pem -startdate 19491231235959Z -enddate 20500101000000Z -notext
emit "validity from 1949 (GeneralizedTime) to 2050 (GeneralizedTime), issued by openssl ca" old.pem
