#if canImport(SwiftUI)
import Latchkey
import SwiftUI

/// The "Devices" screen: the account's signed-in sessions (this device marked), a sign-out button for each, "Sign Out
/// of All Other Devices", the notice and the error line, laid out from `DevicesScreenModel`, which decides all of them.
/// The list loads when the screen appears and on pull to refresh.
public struct DevicesScreen: View {
    private let model: DevicesScreenModel

    /// A screen over `model`.
    public init(model: DevicesScreenModel) {
        self.model = model
    }

    public var body: some View {
        List {
            Section {
                ForEach(model.sessions) { session in
                    VStack(alignment: .leading, spacing: 4) {
                        HStack {
                            Text(model.name(of: session)).font(.headline)
                            if let badge = model.badge(of: session) {
                                Text(badge).font(.caption).foregroundStyle(.secondary)
                            }
                        }
                        Text(model.details(of: session)).font(.subheadline).foregroundStyle(.secondary)
                        Button(model.endTitle(for: session), role: .destructive) {
                            Task { await model.end(session) }
                        }
                        .disabled(!model.isIdle)
                        .overlay {
                            if model.endingSessionID == session.id { ProgressView() }
                        }
                    }
                }
            } header: {
                Text(model.message)
            } footer: {
                if let notice = model.notice {
                    Text(notice)
                }
                if let error = model.errorMessage {
                    Text(error).foregroundStyle(.red)
                }
            }
            if model.showsEndOthers {
                Section {
                    Button(model.endOthersTitle, role: .destructive) {
                        Task { await model.endAllOthers() }
                    }
                    .disabled(!model.isIdle)
                    .overlay {
                        if model.isEndingOtherSessions { ProgressView() }
                    }
                }
            }
        }
        .overlay {
            if model.isLoading && model.sessions.isEmpty { ProgressView() }
        }
        .navigationTitle(model.title)
        .task { await model.load() }
        .refreshable { await model.load() }
    }
}
#endif
