#ifndef CADDIE_CZLIB_SHIM_H
#define CADDIE_CZLIB_SHIM_H
#include <zlib.h>
#endif
