/* Protocols used only by wlslider's test input injectors (sway's virtual pointer, KWin's fake
 * input). Generated headers and tables by scripts/generate-protocols; this header by hand. */
#ifndef WLSLIDER_C_INJECTOR_PROTOCOLS_H
#define WLSLIDER_C_INJECTOR_PROTOCOLS_H

#include <wayland-client.h>
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "fake-input-client-protocol.h"

static inline const struct wl_interface *wlslider_zwlr_virtual_pointer_manager_v1_interface(void) {
    return &zwlr_virtual_pointer_manager_v1_interface;
}
static inline const struct wl_interface *wlslider_org_kde_kwin_fake_input_interface(void) {
    return &org_kde_kwin_fake_input_interface;
}

#endif
