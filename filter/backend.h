/* Which codec backend the filter asks for, and the CPU fallback. */
#ifndef GLIDE_FILTER_BACKEND_H
#define GLIDE_FILTER_BACKEND_H

#include "glide.h"

/* GLIDE_BACKEND=auto|cpu|gpu, read once; an unknown value warns once on
 * stderr and means auto. */
glide_backend gf_backend(void);

/* Tell the user, once per process, that the GPU backend was unavailable and
 * the CPU did the work instead. */
void gf_warn_backend_fallback(void);

#endif
