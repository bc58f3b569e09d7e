/* libxkbcommon: keymaps and key state for wl_keyboard. */
#ifndef WLSLIDER_C_XKBCOMMON_SHIM_H
#define WLSLIDER_C_XKBCOMMON_SHIM_H
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-keysyms.h>
#endif
