#define _GNU_SOURCE /* dladdr, RTLD_NOLOAD, RTLD_DEFAULT */
#include "h5_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static h5_api_t g_api;
static int g_api_ok;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
/* The caller of the first bind request; pthread_once takes no argument. */
static _Atomic(const void *) g_caller;

struct sym {
    const char *name;
    void **slot;
};

/* Resolve every symbol from one source, or none: mixing two HDF5 copies
 * (say, functions from the wheel's and error ids from the system's) would be
 * worse than failing. */
static int resolve_all(void *handle, const struct sym *syms, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        void *p = dlsym(handle, syms[i].name);
        if (!p)
            return -1;
        *syms[i].slot = p;
    }
    return 0;
}

#define SYM(field, name) {name, (void **)&api.field}

static void bind_once(void)
{
    h5_api_t api;
    memset(&api, 0, sizeof api);
    const struct sym syms[] = {
        SYM(Epush2, "H5Epush2"),
        SYM(Tget_class, "H5Tget_class"),
        SYM(Tget_size, "H5Tget_size"),
        SYM(Tget_order, "H5Tget_order"),
        SYM(Tget_precision, "H5Tget_precision"),
        SYM(Tget_offset, "H5Tget_offset"),
        SYM(Tget_fields, "H5Tget_fields"),
        SYM(Tget_ebias, "H5Tget_ebias"),
        SYM(Pget_layout, "H5Pget_layout"),
        SYM(Pget_chunk, "H5Pget_chunk"),
        SYM(Pget_filter_by_id2, "H5Pget_filter_by_id2"),
        SYM(Pmodify_filter, "H5Pmodify_filter"),
        SYM(Pfill_value_defined, "H5Pfill_value_defined"),
        SYM(Pget_fill_value, "H5Pget_fill_value"),
        SYM(allocate_memory, "H5allocate_memory"),
        SYM(free_memory, "H5free_memory"),
        SYM(ERR_CLS, "H5E_ERR_CLS_g"),
        SYM(E_PLINE, "H5E_PLINE_g"),
        SYM(E_CANTFILTER, "H5E_CANTFILTER_g"),
        SYM(E_BADVALUE, "H5E_BADVALUE_g"),
        SYM(E_BADTYPE, "H5E_BADTYPE_g"),
        SYM(E_CALLBACK, "H5E_CALLBACK_g"),
        SYM(E_NOSPACE, "H5E_NOSPACE_g"),
    };
    const size_t nsyms = sizeof syms / sizeof syms[0];
    int ok = 0;

    const void *caller = atomic_load(&g_caller);
    Dl_info info;
    if (caller && dladdr(caller, &info) && info.dli_fname && info.dli_fname[0]) {
        /* NOLOAD: only take a reference to the already-loaded caller, never
         * load a second copy. The reference is dropped right away: the
         * caller holds the plugin open, so it outlives every pointer taken. */
        void *h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (h) {
            ok = resolve_all(h, syms, nsyms) == 0;
            dlclose(h);
        }
    }
    if (!ok)
        ok = resolve_all(RTLD_DEFAULT, syms, nsyms) == 0;
    if (!ok) {
        fprintf(stderr,
                "glide filter: cannot find the HDF5 library that loaded the plugin "
                "(%s); the filter is disabled\n",
                dlerror() ? "symbol lookup failed" : "no caller");
        return;
    }
    g_api = api;
    g_api_ok = 1;
}

const h5_api_t *h5_api_bind(const void *caller)
{
    const void *expected = NULL;
    atomic_compare_exchange_strong(&g_caller, &expected, caller);
    pthread_once(&g_once, bind_once);
    return g_api_ok ? &g_api : NULL;
}

void h5_api_error(const h5_api_t *api, const hid_t *minor, const char *file, const char *func,
                  unsigned line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!api) {
        fprintf(stderr, "%s\n", msg);
        return;
    }
    /* "%s": the message may contain user-supplied text, never a format. */
    api->Epush2(H5E_DEFAULT, file, func, line, *api->ERR_CLS, *api->E_PLINE, *minor, "%s",
                msg);
}
