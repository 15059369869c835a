/* glide_gpu_bench's shared parts: the Markdown report and the helpers its
 * files (glide_gpu_bench.c, glide_gpu_bench_h5.c) both use. */
#ifndef GLIDE_GPU_BENCH_H
#define GLIDE_GPU_BENCH_H
#include <stddef.h>

#define GLIDE_FILTER_ID 45123
#define MAXR 64 /* most timed runs of one measurement */

extern int g_gpu;                /* the GPU backend is built and usable */
extern const char *g_nogpu_why;  /* what a GPU row says without it */
extern char g_exe[4096];         /* this program, re-executed for part 7's children */

/* printf to stdout and to --out's file */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void flush_all(void);
void *xmalloc(size_t n); /* exits when the host has no memory */
/* the cube [o, o+s)^3 of a side-n field */
void extract(const float *f, size_t n, size_t oz, size_t oy, size_t ox, size_t s, float *out);
const char *cube_name(char *b, size_t s); /* "64³" into b (32 bytes) */

/* glide_gpu_bench_h5.c: the child's side (--h5 ...), and part 7 */
int h5_child(int argc, char **argv);
void section_h5(const float *x, size_t n, const char *tmpdir, const char *plugin);

#endif
