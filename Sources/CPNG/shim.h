/* libpng, for golden images and screenshots in tests and tools. */
#ifndef WLSLIDER_C_PNG_SHIM_H
#define WLSLIDER_C_PNG_SHIM_H
#include <png.h>
#endif
