#include "backend.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

static glide_backend g_backend = GLIDE_BACKEND_AUTO;
static pthread_once_t g_env_once = PTHREAD_ONCE_INIT;
static pthread_once_t g_fallback_once = PTHREAD_ONCE_INIT;

static void read_env(void)
{
    const char *v = getenv("GLIDE_BACKEND");
    if (!v || !*v || strcasecmp(v, "auto") == 0)
        g_backend = GLIDE_BACKEND_AUTO;
    else if (strcasecmp(v, "cpu") == 0)
        g_backend = GLIDE_BACKEND_CPU;
    else if (strcasecmp(v, "gpu") == 0)
        g_backend = GLIDE_BACKEND_GPU;
    else
        fprintf(stderr, "glide filter: unknown GLIDE_BACKEND=\"%s\" (auto, cpu or gpu); using auto\n",
                v);
}

glide_backend gf_backend(void)
{
    pthread_once(&g_env_once, read_env);
    return g_backend;
}

static void warn_fallback(void)
{
    fprintf(stderr, "glide filter: requested backend is not available; using the CPU backend\n");
}

void gf_warn_backend_fallback(void)
{
    pthread_once(&g_fallback_once, warn_fallback);
}
