enum CLIUsage {
    static let text = """
    usage: latchkey <command> [options]

      keychain        add, find, delete and list keychain items (like macOS `security`)
      auth            device-owner authentication: status, test
      serve           run the verifying server (HTTP on 127.0.0.1)
      apple-stand-in  a development stand-in for appleid.apple.com (never for production)
      vault           the secure-notes sample app
      passkey         register / log in to a latchkey server with a passkey from the terminal
      self-check      run the cryptographic self-check against published vectors (and say whether a TPM is in use)
      app-attest      the development App Attest authority: its root certificate, the App ID and keys in force

    Exit codes: 0 success, 1 failure, 44 item not found, 45 duplicate item, 64 usage error,
                65 bad input, 69 service unavailable, 77 authentication failed or canceled.
    """
}
