/// LatchkeyServer: the verifying server (accounts, tokens, passkeys, Sign in with Apple) on libmicrohttpd.
public enum LatchkeyServerInfo {
    public static let version = "0.1.0"
}
