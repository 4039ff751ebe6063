#ifndef CZLIB_H
#define CZLIB_H

// zlib from the system (Debian: zlib1g-dev). deflateInit2 is a macro, which Swift cannot
// call, so it is wrapped here: a gzip stream (window bits 15 + 16) at `level`.
#include <zlib.h>

static inline int czlib_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

// For tests that read a gzip body back.
static inline int czlib_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}

#endif
