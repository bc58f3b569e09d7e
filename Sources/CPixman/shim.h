/* pixman: rasterization and compositing for the renderer. */
#ifndef WLSLIDER_C_PIXMAN_SHIM_H
#define WLSLIDER_C_PIXMAN_SHIM_H
#include <pixman.h>
#endif
