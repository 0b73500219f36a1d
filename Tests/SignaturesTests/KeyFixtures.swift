/// Keys made with the openssl command line (`openssl genpkey -algorithm EC -pkeyopt
/// ec_paramgen_curve:P-256`, `P-384`, `-algorithm RSA`, `-algorithm ED25519`, then `openssl pkey -pubout`).
enum KeyFixtures {
    /// A P-256 key as Apple's AuthKey_*.p8 files hold one.
    static let p256PrivateKey = """
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgg8C6ZPddeEkviHyB
iY60D2gRc76rOFlGos+a+sXefmmhRANCAATFqS+VnHqXScXWBRFqdoMoCcjzVVdN
3yMZibX0rHG2tfkgACoLZuPLBfCVljA6mIcTpC4PiyE/TXmV2JQ7Oyk+
-----END PRIVATE KEY-----
"""

    /// The public half of `p256PrivateKey`.
    static let p256PublicKey = """
-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAExakvlZx6l0nF1gURanaDKAnI81VX
Td8jGYm19KxxtrX5IAAqC2bjywXwlZYwOpiHE6QuD4shP015ldiUOzspPg==
-----END PUBLIC KEY-----
"""

    /// `printf hello | openssl dgst -sha256 -sign p256.p8 | base64`: a DER signature made by OpenSSL's CLI.
    static let helloSignatureDERBase64 = "MEQCIHqowBjrydoJed0+slDmUJDS/ocAf0MnG8FZT1vJqjn5AiBpNEU0/a2jxRYQLz58gF4wv9b1lDTlTtukFDZEc/x22Q=="

    /// `p256PrivateKey` in OpenSSL's older SEC1 form (`openssl ec -in p256.p8`).
    static let p256SEC1PrivateKey = """
-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIIPAumT3XXhJL4h8gYmOtA9oEXO+qzhZRqLPmvrF3n5poAoGCCqGSM49
AwEHoUQDQgAExakvlZx6l0nF1gURanaDKAnI81VXTd8jGYm19KxxtrX5IAAqC2bj
ywXwlZYwOpiHE6QuD4shP015ldiUOzspPg==
-----END EC PRIVATE KEY-----
"""

    /// `p256PrivateKey` encrypted with a passphrase (`openssl pkcs8 -topk8 -v2 aes-256-cbc`).
    static let p256EncryptedPrivateKey = """
-----BEGIN ENCRYPTED PRIVATE KEY-----
MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAiIPyeoZpCxEwICCAAw
DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEEF9l0Mhz5y4Bo4JJsXldMp8EgZAZ
N6/ntsG8fA5V2/fnHtsuL/p518qcDoSK/pWFmdOk0Z7kQziQg13bCfdwcsB3sK8P
Lqw+yjZQmzdeAB7wpgTmLkieCAXG4PfBy70j01wM0uXNzAlzvfcHTb0pOZR1cf+/
HTAmJxUZYXIrmQkIfubja1IJasr8nkSMzCmABwWMhmwMUxHilKnXxCcUS1ZT23s=
-----END ENCRYPTED PRIVATE KEY-----
"""

    static let p384PrivateKey = """
-----BEGIN PRIVATE KEY-----
MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDB8bIUXqTEl9h8bWwfd
mUEZTkf9Jogte744injMuJCD8GqFDkHP5swd0Lky8SdWuiuhZANiAAT93eg+mQuE
dLo4wr82jbT3I7EZOkTYUFU95yh39EnUDyeu+mliFzOJ9MN+J2+618U8vRxsoxur
kGMww46nIf1niBKSjsFtMZIZz3B8RE2yIfvCzVxpjOeBtklhYHpiSR0=
-----END PRIVATE KEY-----
"""

    static let p384PublicKey = """
-----BEGIN PUBLIC KEY-----
MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAE/d3oPpkLhHS6OMK/No209yOxGTpE2FBV
Pecod/RJ1A8nrvppYhczifTDfidvutfFPL0cbKMbq5BjMMOOpyH9Z4gSko7BbTGS
Gc9wfERNsiH7ws1caYzngbZJYWB6Ykkd
-----END PUBLIC KEY-----
"""

    static let rsaPrivateKey = """
-----BEGIN PRIVATE KEY-----
MIICdwIBADANBgkqhkiG9w0BAQEFAASCAmEwggJdAgEAAoGBAM8dtUJ3I+xrfA6o
cqkUhIE/oxzrFM51oP6xTy29m+HB1dj8g2SNevl9cEMkvsr5b/b3Rr/Ps8jbxjf8
A3KkDODqUj9cjbSQNalSpDb8ZI+IX+SJRqPM5ZujgGfEJPBsfhUkO8DIAIW1HGmJ
sf7WjAv+7YjU0OrgTvSxXSxN43e3AgMBAAECgYAnp8SAyVbzeVDzbYUmomsMZCbS
7p+5OARvP3utglRKUVakiRSPOBeHlWDdOjfdnQy2+HlvWFFP7+Rv66ytUoO0ZHox
0ipHIIol4eAvbcl3dfoF3vsShqzX11rj6ovuRJqCW5JfOBXtgmgH0dYIVoyWVfhY
MnJ+MhfW5SOmYtPbIQJBAOkdFOa1NoXyoD1TC5Np+pqwIRpKL5OtEEfLhZXjrL3x
uAg2CgkHsrltCvbgdUh7YWDmGfPc81BVfNrNzavOTrUCQQDjczi78ZnPeqRMcONP
qZo+h0olRq9vLPyK5q2tpWEMn/hyLxzy7pc9gpqELFI2uiU4SuCpu2aJE/hZPe+Y
+oQ7AkAUF+aiUEJn31cCkjLwPPVV+hKQYo6hSwyZM6jLF7nfEYPMaWQKDTjRlN2a
FBTn74KgSJU6GPR8GzJM5epxgbH1AkEAubBXoRidecWmXMHM0jyksGfDIKuUji8r
/jpVkG5zzNrM+mt8NtiSoKT/gOiuNf/CYzK+N9PG4iJrnm/yK/JaAQJBAJ4Uxp/E
myAyjomZsgFdtcuEMxZgu8ZvI4oDMzhQxj+wXUuvLsKvBToJLkgdoT+wqACQm4Tn
K/c+NxbZSd9LPhg=
-----END PRIVATE KEY-----
"""

    /// The public half of `rsaPrivateKey`.
    static let rsaPublicKey = """
-----BEGIN PUBLIC KEY-----
MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDPHbVCdyPsa3wOqHKpFISBP6Mc
6xTOdaD+sU8tvZvhwdXY/INkjXr5fXBDJL7K+W/290a/z7PI28Y3/ANypAzg6lI/
XI20kDWpUqQ2/GSPiF/kiUajzOWbo4BnxCTwbH4VJDvAyACFtRxpibH+1owL/u2I
1NDq4E70sV0sTeN3twIDAQAB
-----END PUBLIC KEY-----
"""

    /// A self-signed certificate for `rsaPrivateKey` (`openssl req -new -x509 -key rsa.pem -subj /CN=sa`),
    /// the form Google publishes service-account keys in.
    static let rsaCertificate = """
-----BEGIN CERTIFICATE-----
MIIB+DCCAWGgAwIBAgIUFoAbO3Ue0eozvPEVpWW+5Rvhd8EwDQYJKoZIhvcNAQEL
BQAwDTELMAkGA1UEAwwCc2EwIBcNMjYxMTI0MDYzMzI0WhgPMjEyNjEwMzEwNjMz
MjRaMA0xCzAJBgNVBAMMAnNhMIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDP
HbVCdyPsa3wOqHKpFISBP6Mc6xTOdaD+sU8tvZvhwdXY/INkjXr5fXBDJL7K+W/2
90a/z7PI28Y3/ANypAzg6lI/XI20kDWpUqQ2/GSPiF/kiUajzOWbo4BnxCTwbH4V
JDvAyACFtRxpibH+1owL/u2I1NDq4E70sV0sTeN3twIDAQABo1MwUTAdBgNVHQ4E
FgQUXWGkC915icd7PGXCbPmWczRytRowHwYDVR0jBBgwFoAUXWGkC915icd7PGXC
bPmWczRytRowDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOBgQCttSeZ
MQ+5NHcW9ZZeAv7AKpGMcI2ZvmseXKzkME9yzbSgiCQb2D7eswMWqzkVwVkKOT8R
1ZcDjP+U0lId7hEkWe7LTVYsSNzSQ7SCvQR3oezhg0vMo+N82SfgNfDwFhFME22o
C3rjrRaDef1w8qElEimQy5t6fJul3FCqv9MuAw==
-----END CERTIFICATE-----
"""

    /// `printf hello | openssl dgst -sha256 -sign rsa.pem | base64`: an RS256 signature made by OpenSSL's CLI.
    static let helloRS256SignatureBase64 = "vf7wMbxlOuz9B6W78uMeUKipxmNRJy2GzSvP6NGKRxXmLo+Z9E2IGNDl14Kz+UPXcRFtCnBs2RzaUsdzJmyUhNubr7KONWAPWRKdr8b9kHSImBJX7DeMrrWw0halqgfEHPNYjxS4bhDePilyKTpJJu0M+l33/8QDAJ07YdObxMA="

    static let ed25519PrivateKey = """
-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIEwqP0HgL9lrOURq5NxOUz0M3Abg+jJJJbuiz+/iMbyL
-----END PRIVATE KEY-----
"""
}
