/* libwayland-server, for the test compositor only. */
#ifndef WLSLIDER_C_WAYLAND_SERVER_SHIM_H
#define WLSLIDER_C_WAYLAND_SERVER_SHIM_H
#include <wayland-server.h>
#endif
