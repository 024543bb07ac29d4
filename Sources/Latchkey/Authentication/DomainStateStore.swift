import Foundation
import LatchkeySupport
import LatchkeyCrypto

/// The biometric domain state an app last trusted, and when.
public struct TrustedDomainState: Codable, Sendable, Equatable {
    /// The context's `domainState` then (`nil`: no biometry was enrolled).
    public var domainState: Data?
    /// When it was trusted.
    public var trustedAt: Date

    /// Creates a record.
    public init(domainState: Data?, trustedAt: Date = Date()) {
        self.domainState = domainState
        self.trustedAt = trustedAt
    }
}

/// Where `BiometricChangeDetector` keeps the trusted domain state. A keychain-backed store can
/// implement this too.
public protocol DomainStateStore: Sendable {
    /// The trusted state, or `nil` when none was stored yet.
    func loadTrustedState() throws(DomainStateStoreError) -> TrustedDomainState?
    /// Replaces the trusted state.
    func saveTrustedState(_ state: TrustedDomainState) throws(DomainStateStoreError)
    /// Forgets the trusted state (the account that trusted it was deleted); removing nothing is not an error.
    func removeTrustedState() throws(DomainStateStoreError)
}

/// A `DomainStateStore` could not read or write.
public enum DomainStateStoreError: Error, Sendable, Equatable {
    /// Reading failed or the stored record is damaged.
    case unreadable(path: String)
    /// Writing failed.
    case unwritable(path: String)
}

extension DomainStateStoreError: LocalizedError {
    public var errorDescription: String? {
        let lang = MessageLanguage.current
        switch self {
        case let .unreadable(path):
            return lang.pick(english: "Cannot read the trusted biometric state at \(path).",
                             korean: "\(path)에서 신뢰된 생체 상태를 읽을 수 없습니다.")
        case let .unwritable(path):
            return lang.pick(english: "Cannot save the trusted biometric state at \(path).",
                             korean: "\(path)에 신뢰된 생체 상태를 저장할 수 없습니다.")
        }
    }
}

/// In memory, for tests and previews.
public final class MemoryDomainStateStore: DomainStateStore {
    private let stored: Locked<TrustedDomainState?>

    /// An empty store (or one holding `state`).
    public init(_ state: TrustedDomainState? = nil) { stored = Locked(state) }

    /// The stored state.
    public func loadTrustedState() throws(DomainStateStoreError) -> TrustedDomainState? { stored.withLock { $0 } }
    /// Replaces the stored state.
    public func saveTrustedState(_ state: TrustedDomainState) throws(DomainStateStoreError) { stored.withLock { $0 = state } }
    /// Empties the store.
    public func removeTrustedState() throws(DomainStateStoreError) { stored.withLock { $0 = nil } }
}

/// A JSON file, mode 0600, replaced atomically.
public struct FileDomainStateStore: DomainStateStore {
    /// The file.
    public let url: URL

    /// A store at `url`.
    public init(url: URL) { self.url = url }

    /// Reads the file; `nil` when it does not exist.
    public func loadTrustedState() throws(DomainStateStoreError) -> TrustedDomainState? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let data = FileManager.default.contents(atPath: url.path),
              let state = try? Self.decoder.decode(TrustedDomainState.self, from: data)
        else { throw .unreadable(path: url.path) }
        return state
    }

    /// Writes the file.
    public func saveTrustedState(_ state: TrustedDomainState) throws(DomainStateStoreError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let data = try Self.encoder.encode(state)
            try data.write(to: url, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch {
            throw .unwritable(path: url.path)
        }
    }

    /// Deletes the file.
    public func removeTrustedState() throws(DomainStateStoreError) {
        do { try FileManager.default.removeItem(at: url) } catch {
            guard FileManager.default.fileExists(atPath: url.path) else { return }
            throw .unwritable(path: url.path)
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
