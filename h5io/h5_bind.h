/* The HDF5 functions glide_h5.h's calls use, looked up at run time in the
 * HDF5 library the caller uses (as the plugin binds, filter/h5_api.h):
 * libglide links no libhdf5, so a C program linked with one and h5py's
 * bundled copy (through glide_h5_bind) are served alike. */
#ifndef GLIDE_H5IO_H5_BIND_H
#define GLIDE_H5IO_H5_BIND_H

#include <hdf5.h>

typedef struct {
    __typeof__(H5open) *open;
    __typeof__(H5Dget_space) *Dget_space;
    __typeof__(H5Dget_type) *Dget_type;
    __typeof__(H5Dget_create_plist) *Dget_create_plist;
    __typeof__(H5Dget_chunk_info_by_coord) *Dget_chunk_info_by_coord;
    __typeof__(H5Dwrite_chunk) *Dwrite_chunk;
    /* H5Dread_chunk (1.10-1.14), named H5Dread_chunk1 from HDF5 2.0 on; else
     * 2.0's H5Dread_chunk2, which takes the buffer's size too */
    herr_t (*Dread_chunk)(hid_t, hid_t, const hsize_t *, uint32_t *, void *);
    herr_t (*Dread_chunk2)(hid_t, hid_t, const hsize_t *, uint32_t *, void *, size_t *);
    __typeof__(H5Sget_simple_extent_ndims) *Sget_simple_extent_ndims;
    __typeof__(H5Sget_simple_extent_dims) *Sget_simple_extent_dims;
    __typeof__(H5Sclose) *Sclose;
    __typeof__(H5Tequal) *Tequal;
    __typeof__(H5Tclose) *Tclose;
    __typeof__(H5Pget_layout) *Pget_layout;
    __typeof__(H5Pget_chunk) *Pget_chunk;
    __typeof__(H5Pget_nfilters) *Pget_nfilters;
    __typeof__(H5Pget_filter2) *Pget_filter2;
    __typeof__(H5Pget_fill_time) *Pget_fill_time;
    __typeof__(H5Pclose) *Pclose;
    const hid_t *IEEE_F32LE, *IEEE_F64LE; /* read after H5open: their values change if HDF5 is reopened */
} gh_api;

/* The binding: 0, or -1 with the reason in msg. addr: an address inside
 * the HDF5 library to use; NULL: the process's global symbols. */
int gh_bind(const void *addr, gh_api *out, char *msg, size_t len);

#endif
