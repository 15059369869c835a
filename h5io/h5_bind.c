#define _GNU_SOURCE
#include "h5_bind.h"

#include <dlfcn.h>
#include <stdio.h>

int gh_bind(const void *addr, gh_api *out, char *msg, size_t len)
{
    void *h = RTLD_DEFAULT;
    if (addr) {
        Dl_info info;
        if (!dladdr(addr, &info) || !info.dli_fname ||
            !(h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD))) {
            snprintf(msg, len, "glide: the address given to glide_h5_bind lies in no loaded library");
            return -1;
        }
    }
    struct {
        const char *name;
        void **slot;
    } syms[] = {
#define S(f, n) {#n, (void **)&out->f}
        S(open, H5open), S(Dget_space, H5Dget_space), S(Dget_type, H5Dget_type),
        S(Dget_create_plist, H5Dget_create_plist), S(Dget_chunk_info_by_coord, H5Dget_chunk_info_by_coord),
        S(Dwrite_chunk, H5Dwrite_chunk),
        S(Sget_simple_extent_ndims, H5Sget_simple_extent_ndims), S(Sget_simple_extent_dims, H5Sget_simple_extent_dims),
        S(Sclose, H5Sclose), S(Tequal, H5Tequal), S(Tclose, H5Tclose), S(Pget_layout, H5Pget_layout),
        S(Pget_chunk, H5Pget_chunk), S(Pget_nfilters, H5Pget_nfilters), S(Pget_filter2, H5Pget_filter2),
        S(Pget_fill_time, H5Pget_fill_time), S(Pclose, H5Pclose), S(IEEE_F32LE, H5T_IEEE_F32LE_g),
        S(IEEE_F64LE, H5T_IEEE_F64LE_g),
#undef S
    };
    for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
        dlerror();
        *syms[i].slot = dlsym(h, syms[i].name);
        if (!*syms[i].slot) {
            snprintf(msg, len,
                     "glide: %s not found in %s (HDF5 >= 1.10.5 must be loaded: link libhdf5, or call glide_h5_bind "
                     "with an address inside the HDF5 in use)",
                     syms[i].name, addr ? "the library given to glide_h5_bind" : "the process");
            return -1;
        }
    }
    static const char *reads[] = {"H5Dread_chunk", "H5Dread_chunk1"};
    out->Dread_chunk = NULL;
    out->Dread_chunk2 = NULL;
    for (size_t i = 0; i < 2 && !out->Dread_chunk; i++) *(void **)&out->Dread_chunk = dlsym(h, reads[i]);
    if (!out->Dread_chunk) *(void **)&out->Dread_chunk2 = dlsym(h, "H5Dread_chunk2");
    if (!out->Dread_chunk && !out->Dread_chunk2) {
        snprintf(msg, len, "glide: no H5Dread_chunk in the HDF5 found (HDF5 >= 1.10.5 needed)");
        return -1;
    }
    if (out->open() < 0) {
        snprintf(msg, len, "glide: H5open failed");
        return -1;
    }
    return 0;
}
