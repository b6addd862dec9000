#ifndef FITIQ_CMALLOC_SHIM_H
#define FITIQ_CMALLOC_SHIM_H
/* glibc's malloc tuning (mallopt), which the Glibc module leaves out. */
#include <malloc.h>
#endif
