import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The C callbacks given to libmicrohttpd. They live outside main.swift on purpose: top-level code there is
// main-actor code, and libmicrohttpd calls these from its own threads.

/// libmicrohttpd's URI callback (`MHD_OPTION_URI_LOG_CALLBACK`): called once per request with the request target
/// as it was sent, before libmicrohttpd percent-decodes its copy (which would turn `%2F` into a separator before the
/// path is split). The request's state starts here, keeping the raw path; it becomes the connection's slot.
let mhdTargetReceived: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
    -> UnsafeMutableRawPointer? = { _, uri, connection in
    guard let connection else { return nil }
    let context = RequestContext(connection: connection, target: uri, path: "/")
    return Unmanaged.passRetained(context).toOpaque()
}

/// libmicrohttpd's access handler: called after the headers, once per body chunk, and when the request is complete
/// (and again after a suspended connection is resumed).
let mhdAccessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadDataSize, slot in
    guard let cls, let connection, let uploadDataSize, let slot else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let context: RequestContext
    if let raw = slot.pointee {
        context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
    } else {
        // No target callback ran (it always does): the decoded URL is the best there is.
        let path = url.map { RequestContext.path(ofTarget: UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? "/"
        context = RequestContext(connection: connection, target: nil, path: path)
        slot.pointee = Unmanaged.passRetained(context).toOpaque()
    }
    if !context.begun {
        core.begin(context, method: method, version: version)
        if let early = context.earlyResponse { return core.queue(early, for: context) }
        return .YES
    }
    let size = uploadDataSize.pointee
    if size > 0 {
        uploadDataSize.pointee = 0
        return core.receive(UnsafeRawBufferPointer(start: uploadData, count: size), for: context)
    }
    return core.finish(context)
}

/// libmicrohttpd's completion callback: releases the request state (also after timeouts, client aborts and requests
/// libmicrohttpd refused itself after the target callback).
let mhdRequestCompleted: MHD_RequestCompletedCallback = { cls, _, slot, _ in
    guard let cls, let slot, let raw = slot.pointee else { return }
    slot.pointee = nil
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
    if context.begun { Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().requestEnded() }
}

/// libmicrohttpd's connection callback: counts open connections (`ConnectionCount`: a close wakes the accept thread
/// when it waits at the limit) and marks the ones opened over `HTTPServerConfiguration.connectionLimit` (their
/// requests are refused with 503; see `ServerCore.begin`).
let mhdConnectionNotified: MHD_NotifyConnectionCallback = { cls, _, socketContext, code in
    guard let cls, let socketContext else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        let open = core.connections.withLock { $0.started() }
        socketContext.pointee = open > core.connectionLimit ? ServerCore.overflowMark : nil
    case .CONNECTION_NOTIFY_CLOSED:
        if let wake = core.connections.withLock({ $0.closed() }) { Acceptor.wake(wake) }
        socketContext.pointee = nil
    default:
        break
    }
}

/// Feeds one header or query argument, with its real length, to a `ValueCollector`.
let mhdCollectValue: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
    let name = UnsafeRawBufferPointer(start: key, count: keySize)
    let text = value.map { UnsafeRawBufferPointer(start: $0, count: valueSize) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
    if name.contains(0) || text.contains(0) { collector.containsNUL = true }
    collector.layout?.follow(name: key, nameCount: keySize, value: value, valueCount: valueSize)
    collector.add(String(decoding: name, as: UTF8.self), String(decoding: text, as: UTF8.self))
    return .YES
}

/// The peer's address, through the fixed-argument wrapper of the variadic `MHD_get_connection_info`
/// in Sources/CMicroHTTPD/shim.h.
enum ConnectionInfo {
    /// The peer's IP address as text, or "unknown".
    static func remoteAddress(_ connection: OpaquePointer) -> String {
        guard let info = latchkey_connection_client_address(connection),
              let address = info.pointee.client_addr else { return "unknown" }
        return ListenSocket.text(of: address)
    }
}
