/* Run-time binding to the HDF5 library that loaded the plugin.
 *
 * The plugin must not link libhdf5: h5py wheels bundle their own libhdf5 and
 * load it RTLD_LOCAL, so its symbols are invisible to a plugin that relies on
 * global symbol lookup, and linking the system libhdf5 instead would pull a
 * second, uninitialised HDF5 into the process. So every HDF5 function and
 * error-id variable is looked up with dlsym in the shared object that called
 * us. HDF5 headers are used for types and constants only.
 */
#ifndef GLIDE_FILTER_H5_API_H
#define GLIDE_FILTER_H5_API_H

#include <hdf5.h>

typedef struct {
    __typeof__(H5Epush2) *Epush2;
    __typeof__(H5Tget_class) *Tget_class;
    __typeof__(H5Tget_size) *Tget_size;
    __typeof__(H5Tget_order) *Tget_order;
    __typeof__(H5Tget_precision) *Tget_precision;
    __typeof__(H5Tget_offset) *Tget_offset;
    __typeof__(H5Tget_fields) *Tget_fields;
    __typeof__(H5Tget_ebias) *Tget_ebias;
    __typeof__(H5Pget_layout) *Pget_layout;
    __typeof__(H5Pget_chunk) *Pget_chunk;
    __typeof__(H5Pget_filter_by_id2) *Pget_filter_by_id2;
    __typeof__(H5Pmodify_filter) *Pmodify_filter;
    __typeof__(H5Pfill_value_defined) *Pfill_value_defined;
    __typeof__(H5Pget_fill_value) *Pget_fill_value;
    __typeof__(H5allocate_memory) *allocate_memory;
    __typeof__(H5free_memory) *free_memory;
    /* Error ids are read through pointers at push time: HDF5 re-registers
     * them (new ids) if the library is closed and reopened. */
    const hid_t *ERR_CLS;
    const hid_t *E_PLINE;     /* major: data filters */
    const hid_t *E_CANTFILTER;
    const hid_t *E_BADVALUE;
    const hid_t *E_BADTYPE;
    const hid_t *E_CALLBACK;
    const hid_t *E_NOSPACE;
} h5_api_t;

/* Bind (once, thread-safe) to the HDF5 library containing `caller`, a code
 * address inside whoever called into the plugin; falls back to the global
 * namespace when that object does not provide HDF5 (a program that links
 * libhdf5 and registers the filter itself). Returns NULL if HDF5 cannot be
 * found; the reason goes to stderr since there is no error stack to use. */
const h5_api_t *h5_api_bind(const void *caller);

/* Push "glide: ..." onto the HDF5 error stack under major H5E_PLINE with the
 * given minor id (one of the E_* pointers above). */
void h5_api_error(const h5_api_t *api, const hid_t *minor, const char *file, const char *func,
                  unsigned line, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#define H5_ERR(api, minor, ...) \
    h5_api_error((api), (api) ? (api)->minor : NULL, __FILE__, __func__, __LINE__, __VA_ARGS__)

#endif
