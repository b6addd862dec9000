#ifndef FITIQ_CZLIB_SHIM_H
#define FITIQ_CZLIB_SHIM_H
#include <zlib.h>

/* inflateInit2 is a macro Swift cannot call: raw deflate (no zlib header), as zip members hold it. */
static inline int fitiq_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
#endif
