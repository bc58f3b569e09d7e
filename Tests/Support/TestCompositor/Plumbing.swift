// The few shapes every protocol file needs to tie libwayland-server's C objects to Swift objects.
// This is where the raw pointer work happens; the protocol files stay close to the protocol text.
internal import CWaylandServer

/// A Swift object behind one `wl_resource`. The resource keeps it alive (one retain, taken in
/// ``bind(_:to:implementation:)`` and given back in the resource's destroy hook), so an object lives
/// exactly as long as the client's protocol object.
protocol ResourceObject: AnyObject {
    /// Called once, when the resource is destroyed (by the client, or on disconnect).
    func resourceDestroyed()
}

/// Ties `object` to `resource` with the request table `implementation`.
func bind(_ object: ResourceObject, to resource: OpaquePointer, implementation: RequestTable?) {
    let data = Unmanaged.passRetained(object as AnyObject).toOpaque()
    wl_resource_set_implementation(resource, implementation?.pointer, data) { resource in
        guard let data = wl_resource_get_user_data(resource) else { return }
        let object = Unmanaged<AnyObject>.fromOpaque(data).takeRetainedValue()
        wl_resource_set_user_data(resource, nil)
        (object as? ResourceObject)?.resourceDestroyed()
    }
}

/// The object tied to `resource` by ``bind(_:to:implementation:)``.
func object<T: AnyObject>(_ resource: OpaquePointer?, as type: T.Type = T.self) -> T {
    let data = wl_resource_get_user_data(resource)!
    return Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as! T
}

/// The object tied to `resource`, or nil for a null object argument.
func optionalObject<T: AnyObject>(_ resource: OpaquePointer?, as type: T.Type = T.self) -> T? {
    guard let resource, let data = wl_resource_get_user_data(resource) else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as? T
}

/// A request table (a C struct of function pointers, one per request), allocated once and never
/// freed: libwayland keeps a pointer to it in every resource.
struct RequestTable: @unchecked Sendable {
    // @unchecked: written once, before any use, then only read by libwayland.
    let pointer: UnsafeRawPointer
}

func implementationTable<T>(_ table: T) -> RequestTable {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    pointer.initialize(to: table)
    return RequestTable(pointer: UnsafeRawPointer(pointer))
}

/// Creates a resource for `client`, posting `no_memory` to it when that fails.
func createResource(_ client: OpaquePointer?, _ interface: UnsafePointer<wl_interface>?, version: Int32, id: UInt32) -> OpaquePointer? {
    guard let resource = wl_resource_create(client, interface, version, id) else {
        wl_client_post_no_memory(client)
        return nil
    }
    return resource
}

/// Posts a protocol error on `resource` (the recording happens in the protocol logger, which sees
/// every `wl_display.error`, including those libwayland posts on its own).
func postError(_ resource: OpaquePointer?, _ code: UInt32, _ message: String) {
    wlslider_resource_post_error(resource, code, message)
}

/// A `wl_listener` whose notification calls a Swift closure.
///
/// The C struct and a pointer back to this object sit in one allocation, so the notify function
/// (which receives only the listener's address) can find the closure.
final class SignalListener {
    private let memory: UnsafeMutableRawPointer
    private let onNotify: (UnsafeMutableRawPointer?) -> Void
    private var isLinked = false

    init(_ onNotify: @escaping (UnsafeMutableRawPointer?) -> Void) {
        self.onNotify = onNotify
        let size = MemoryLayout<wl_listener>.stride + MemoryLayout<UnsafeRawPointer>.stride
        memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<wl_listener>.alignment)
        let listener = memory.bindMemory(to: wl_listener.self, capacity: 1)
        listener.initialize(to: wl_listener(link: wl_list(), notify: { listener, data in
            let box = UnsafeMutableRawPointer(listener!) + MemoryLayout<wl_listener>.stride
            let owner = Unmanaged<SignalListener>.fromOpaque(box.load(as: UnsafeRawPointer.self)).takeUnretainedValue()
            owner.onNotify(data)
        }))
        (memory + MemoryLayout<wl_listener>.stride).storeBytes(of: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()), as: UnsafeRawPointer.self)
    }

    /// The C listener, to hand to `wl_*_add_*_listener` (marks it linked).
    var listener: UnsafeMutablePointer<wl_listener> {
        isLinked = true
        return memory.assumingMemoryBound(to: wl_listener.self)
    }

    /// Unlinks the listener from its signal; safe to call more than once.
    func remove() {
        guard isLinked else { return }
        isLinked = false
        wl_list_remove(&memory.assumingMemoryBound(to: wl_listener.self).pointee.link)
    }

    deinit {
        remove()
        memory.deallocate()
    }
}
