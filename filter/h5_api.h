/* Run-time binding to the HDF5 library that loaded the plugin.
 *
 * The plugin must not link libhdf5: h5py wheels bundle their own libhdf5 and
 * load it RTLD_LOCAL, so its symbols are invisible to a plugin that relies on
 * global symbol lookup, and linking the system libhdf5 instead would pull a
 * second, uninitialised HDF5 into the process. So every HDF5 function and
 * error-id variable is looked up in the object that called us: its dynamic
 * symbols (and its dependencies'), else its ELF symbol table (a program
 * linked with a static libhdf5 exports none of HDF5's symbols). HDF5 headers
 * are used for types and constants only.
 *
 * One process may hold several HDF5 copies that each load the plugin (say the
 * netCDF4 and h5py wheels), so there is one binding per copy, in a slot of a
 * small fixed table; h5z_glide.c hands each copy a filter class whose
 * callbacks are tied to that copy's slot.
 */
#ifndef GLIDE_FILTER_H5_API_H
#define GLIDE_FILTER_H5_API_H

#include <hdf5.h>

/* HDF5 copies one process can bind to at the same time. */
#define H5_API_SLOTS 8

typedef struct {
    __typeof__(H5Epush2) *Epush2;
    __typeof__(H5get_libversion) *get_libversion;
    __typeof__(H5Tget_class) *Tget_class;
    __typeof__(H5Tget_size) *Tget_size;
    __typeof__(H5Tget_order) *Tget_order;
    __typeof__(H5Tequal) *Tequal;
    __typeof__(H5Pget_layout) *Pget_layout;
    __typeof__(H5Pget_chunk) *Pget_chunk;
    __typeof__(H5Pget_filter_by_id2) *Pget_filter_by_id2;
    __typeof__(H5Pmodify_filter) *Pmodify_filter;
    __typeof__(H5Pfill_value_defined) *Pfill_value_defined;
    __typeof__(H5Pget_fill_value) *Pget_fill_value;
    __typeof__(H5allocate_memory) *allocate_memory;
    __typeof__(H5free_memory) *free_memory;
    /* Ids are read through pointers at use time: HDF5 re-registers them
     * (new ids) if the library is closed and reopened. */
    const hid_t *IEEE_F32LE, *IEEE_F32BE, *IEEE_F64LE, *IEEE_F64BE;
    const hid_t *ERR_CLS;
    const hid_t *E_PLINE; /* major: data filters */
    const hid_t *E_CANTFILTER;
    const hid_t *E_BADVALUE;
    const hid_t *E_BADTYPE;
    const hid_t *E_CALLBACK;
    const hid_t *E_NOSPACE;
    /* HDF5 >= 1.14.5 drops what a filter callback pushes on the default
     * error stack (it pauses, or saves and restores, the stack around the
     * call: HDFGroup/hdf5#6194), so the reason must also go to stderr. */
    int stack_dropped;
} h5_api_t;

/* Binds (thread-safe) to the HDF5 library containing `caller`, a code
 * address inside whoever called into the plugin, reusing the slot of a copy
 * bound before. Falls back to the global namespace when that object holds no
 * HDF5. Returns the slot index, or -1 with the reason on stderr (there is no
 * error stack to use) when HDF5 cannot be found or the table is full. */
int h5_api_bind(const void *caller);

/* The binding in `slot`, or NULL if that slot was never bound. */
const h5_api_t *h5_api_slot(int slot);

/* Pushes "glide: ..." onto the HDF5 error stack under major H5E_PLINE with
 * the given minor id (one of the E_* pointers above). Also writes it to
 * stderr, once per distinct message per process, when `loud` is set or the
 * stack would drop it. */
void h5_api_error(const h5_api_t *api, const hid_t *minor, int loud, const char *file,
                  const char *func, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* A failure inside the chunk callback. */
#define H5_ERR(api, minor, ...) \
    h5_api_error((api), (api) ? (api)->minor : NULL, 0, __FILE__, __func__, __LINE__, __VA_ARGS__)

/* can_apply or set_local rejecting a dataset: tools such as h5repack then
 * quietly store the data unfiltered and print no error stack, so the reason
 * always goes to stderr too. */
#define H5_REJECT(api, minor, ...) \
    h5_api_error((api), (api) ? (api)->minor : NULL, 1, __FILE__, __func__, __LINE__, __VA_ARGS__)

#endif
