#ifndef CADDIE_CSODIUM_SHIM_H
#define CADDIE_CSODIUM_SHIM_H
#include <sodium.h>
#endif
