// The two ways a test can put input into a real compositor: wlroots' virtual pointer (sway) and
// KWin's fake input. Each turns the injector's primitives into its protocol's requests.
internal import CInjectorProtocols
internal import CWaylandClient
import Glibc

/// Linux input event codes (linux/input-event-codes.h).
private enum EventCode {
    static let leftButton: UInt32 = 0x110 // BTN_LEFT
}

/// `wl_pointer.axis` numbering, shared by both protocols.
private enum Axis {
    static let vertical: UInt32 = 0
    /// What one wheel detent scrolls in `axis` units, by libinput's and the compositors' convention.
    static let detentDistance = 15.0
}

/// Input primitives a backend can inject; unsupported ones throw with the reason.
protocol InputBackend: AnyObject {
    /// A short name for messages: "virtual pointer" or "fake input".
    var name: String { get }
    func pointerMove(to p: GlobalPoint) throws(InjectorError)
    func pointerButton(pressed: Bool) throws(InjectorError)
    func wheel(detents: Int) throws(InjectorError)
    func touchDown(id: UInt32, at p: GlobalPoint) throws(InjectorError)
    func touchMove(id: UInt32, to p: GlobalPoint) throws(InjectorError)
    func touchUp(id: UInt32) throws(InjectorError)
    func touchCancel() throws(InjectorError)
    func touchFrame() throws(InjectorError)
}

/// Milliseconds of CLOCK_MONOTONIC, the time base compositors use for input events.
func monotonicMilliseconds() -> UInt32 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt32(truncatingIfNeeded: Int(now.tv_sec) &* 1000 &+ Int(now.tv_nsec) / 1_000_000)
}

/// `zwlr_virtual_pointer_v1` (wlroots): pointer and wheel, no touch.
final class VirtualPointerBackend: InputBackend {
    let name = "virtual pointer"
    private let manager: OpaquePointer
    private let device: OpaquePointer
    /// The output layout's logical size: `motion_absolute` takes a position relative to an extent.
    private let extent: (width: Double, height: Double)
    /// `motion_absolute` takes integers: positions are sent in 1/256 pixel so sub-pixel targets survive.
    private let subpixels = 256.0

    init(display: Display, global: Global, extent: (width: Double, height: Double)) {
        manager = display.bind(global, interface: wlslider_zwlr_virtual_pointer_manager_v1_interface(), supported: 1)
        // A nil seat means the compositor's default seat.
        device = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, nil)
        self.extent = extent
    }

    deinit {
        zwlr_virtual_pointer_v1_destroy(device)
        zwlr_virtual_pointer_manager_v1_destroy(manager)
    }

    func pointerMove(to p: GlobalPoint) throws(InjectorError) {
        guard p.x <= extent.width, p.y <= extent.height else {
            throw InjectorError("pointer move \(p.x) \(p.y): outside the output layout \(extent.width)x\(extent.height)")
        }
        zwlr_virtual_pointer_v1_motion_absolute(
            device, monotonicMilliseconds(), UInt32((p.x * subpixels).rounded()), UInt32((p.y * subpixels).rounded()),
            UInt32((extent.width * subpixels).rounded()), UInt32((extent.height * subpixels).rounded()))
        zwlr_virtual_pointer_v1_frame(device)
    }

    func pointerButton(pressed: Bool) throws(InjectorError) {
        let state = pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED
        zwlr_virtual_pointer_v1_button(device, monotonicMilliseconds(), EventCode.leftButton, state.rawValue)
        zwlr_virtual_pointer_v1_frame(device)
    }

    func wheel(detents: Int) throws(InjectorError) {
        let time = monotonicMilliseconds()
        zwlr_virtual_pointer_v1_axis_source(device, WL_POINTER_AXIS_SOURCE_WHEEL.rawValue)
        zwlr_virtual_pointer_v1_axis_discrete(device, time, Axis.vertical,
                                              wl_fixed_from_double(Double(detents) * Axis.detentDistance), Int32(detents))
        zwlr_virtual_pointer_v1_frame(device)
    }

    private func noTouch() -> InjectorError {
        InjectorError("touch: the virtual pointer cannot inject touch (wlroots 0.15 has no virtual touch protocol); use KWin's fake input")
    }

    func touchDown(id: UInt32, at p: GlobalPoint) throws(InjectorError) { throw noTouch() }
    func touchMove(id: UInt32, to p: GlobalPoint) throws(InjectorError) { throw noTouch() }
    func touchUp(id: UInt32) throws(InjectorError) { throw noTouch() }
    func touchCancel() throws(InjectorError) { throw noTouch() }
    func touchFrame() throws(InjectorError) { throw noTouch() }
}

/// `org_kde_kwin_fake_input` (KWin): pointer, wheel and touch, in global coordinates.
final class FakeInputBackend: InputBackend {
    let name = "fake input"
    private let proxy: OpaquePointer

    /// Binds the global and authenticates; KWin drops every request before `authenticate`.
    init(display: Display, global: Global) throws(InjectorError) {
        // Version 3 has absolute pointer motion, 2 touch; nothing newer is needed.
        guard global.version >= 3 else {
            throw InjectorError("org_kde_kwin_fake_input: need version 3 (absolute pointer, touch), compositor offers \(global.version)")
        }
        proxy = display.bind(global, interface: wlslider_org_kde_kwin_fake_input_interface(), supported: 4)
        org_kde_kwin_fake_input_authenticate(proxy, "wlslider-inject", "wlslider end-to-end tests")
    }

    // The protocol has no destructor request: this only frees the proxy.
    deinit { org_kde_kwin_fake_input_destroy(proxy) }

    func pointerMove(to p: GlobalPoint) throws(InjectorError) {
        org_kde_kwin_fake_input_pointer_motion_absolute(proxy, wl_fixed_from_double(p.x), wl_fixed_from_double(p.y))
    }

    func pointerButton(pressed: Bool) throws(InjectorError) {
        let state = pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED
        org_kde_kwin_fake_input_button(proxy, EventCode.leftButton, state.rawValue)
    }

    func wheel(detents: Int) throws(InjectorError) {
        org_kde_kwin_fake_input_axis(proxy, Axis.vertical, wl_fixed_from_double(Double(detents) * Axis.detentDistance))
    }

    func touchDown(id: UInt32, at p: GlobalPoint) throws(InjectorError) {
        org_kde_kwin_fake_input_touch_down(proxy, id, wl_fixed_from_double(p.x), wl_fixed_from_double(p.y))
    }

    func touchMove(id: UInt32, to p: GlobalPoint) throws(InjectorError) {
        org_kde_kwin_fake_input_touch_motion(proxy, id, wl_fixed_from_double(p.x), wl_fixed_from_double(p.y))
    }

    func touchUp(id: UInt32) throws(InjectorError) { org_kde_kwin_fake_input_touch_up(proxy, id) }
    func touchCancel() throws(InjectorError) { org_kde_kwin_fake_input_touch_cancel(proxy) }
    func touchFrame() throws(InjectorError) { org_kde_kwin_fake_input_touch_frame(proxy) }
}
