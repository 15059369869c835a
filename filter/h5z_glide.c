/* HDF5 filter plugin for the GLIDE codec: filter id 45123, name "glide".
 *
 * Entry points HDF5's plugin loader looks for, the filter class, and the
 * dataset-creation callbacks (can_apply, set_local). The chunk work lives in
 * chunk_codec.c, the cd_values rules in cd_values.c, the HDF5 binding in
 * h5_api.c. See filter/README.md for the cd_values table.
 */
#include <stdint.h>
#include <string.h>

#include <H5PLextern.h>

#include "byteswap.h"
#include "cd_values.h"
#include "chunk_codec.h"
#include "glide.h"
#include "h5_api.h"

static const char *class_name(H5T_class_t c)
{
    switch ((int)c) {
    case H5T_INTEGER: return "integer";
    case H5T_FLOAT: return "float";
    case H5T_TIME: return "time";
    case H5T_STRING: return "string";
    case H5T_BITFIELD: return "bitfield";
    case H5T_OPAQUE: return "opaque";
    case H5T_COMPOUND: return "compound";
    case H5T_REFERENCE: return "reference";
    case H5T_ENUM: return "enum";
    case H5T_VLEN: return "variable-length";
    case H5T_ARRAY: return "array";
    case 11: return "complex"; /* H5T_COMPLEX, HDF5 >= 2.0 */
    default: return "unknown type class";
    }
}

#define TYPE_REJECT "glide: only 32- and 64-bit IEEE floating-point datasets can be compressed"

/* Checks the type is IEEE binary32/binary64 (LE or BE), not merely "a float
 * of 4 or 8 bytes": HDF5 allows custom float layouts the codec cannot read.
 * H5Tequal against the predefined IEEE types rather than H5Tget_fields: a
 * program linked with a static libhdf5 often lacks the latter. */
static int check_type(const h5_api_t *api, hid_t type, size_t *size_out, H5T_order_t *order_out)
{
    H5T_class_t cls = api->Tget_class(type);
    if (cls < 0) {
        H5_REJECT(api, E_BADTYPE, "glide: cannot query the dataset's datatype");
        return -1;
    }
    if (cls != H5T_FLOAT) {
        H5_REJECT(api, E_BADTYPE, TYPE_REJECT " (got %s)", class_name(cls));
        return -1;
    }
    size_t size = api->Tget_size(type);
    if (size != 4 && size != 8) {
        H5_REJECT(api, E_BADTYPE, TYPE_REJECT " (got a %zu-byte float)", size);
        return -1;
    }
    H5T_order_t order = api->Tget_order(type);
    if (order != H5T_ORDER_LE && order != H5T_ORDER_BE) {
        H5_REJECT(api, E_BADTYPE, TYPE_REJECT " (got a float of mixed or VAX byte order)");
        return -1;
    }
    const hid_t *ieee = size == 4 ? (order == H5T_ORDER_LE ? api->IEEE_F32LE : api->IEEE_F32BE)
                                  : (order == H5T_ORDER_LE ? api->IEEE_F64LE : api->IEEE_F64BE);
    if (api->Tequal(type, *ieee) <= 0) {
        H5_REJECT(api, E_BADTYPE, TYPE_REJECT " (got a %zu-byte float with a non-IEEE layout)",
                  size);
        return -1;
    }
    *size_out = size;
    *order_out = order;
    return 0;
}

static const char *layout_name(H5D_layout_t l)
{
    switch ((int)l) {
    case H5D_COMPACT: return "compact";
    case H5D_CONTIGUOUS: return "contiguous";
    case H5D_VIRTUAL: return "virtual";
    default: return "unknown";
    }
}

/* Chunk rank and dims for elements of `size` bytes, or -1 after pushing an
 * error. A chunk of at most 4 GiB also has every dimension below 2^32, which
 * is what cd_values can carry. */
static int get_chunk(const h5_api_t *api, hid_t dcpl, size_t size, hsize_t dims[GF_MAX_RANK])
{
    H5D_layout_t layout = api->Pget_layout(dcpl);
    if (layout != H5D_CHUNKED) {
        H5_REJECT(api, E_BADVALUE, "glide: the dataset must use a chunked layout (got %s)",
               layout_name(layout));
        return -1;
    }
    int rank = api->Pget_chunk(dcpl, GF_MAX_RANK, dims);
    if (rank < 1 || rank > GF_MAX_RANK) {
        H5_REJECT(api, E_BADVALUE, "glide: cannot read the chunk shape");
        return -1;
    }
    uint64_t bytes = size;
    for (int i = 0; i < rank; i++) {
        if (dims[i] == 0 || bytes > GLIDE_MAX_INPUT_BYTES / dims[i]) {
            H5_REJECT(api, E_BADVALUE,
                   "glide: chunks larger than 4 GiB cannot be compressed; choose a smaller chunk "
                   "shape");
            return -1;
        }
        bytes *= dims[i];
    }
    return rank;
}

static htri_t can_apply(const h5_api_t *api, hid_t dcpl, hid_t type, hid_t space)
{
    (void)space;
    if (!api)
        return -1;
    size_t size;
    H5T_order_t order;
    /* Hard errors (-1), not "not applicable" (0): h5py marks user filters
     * optional, and HDF5 silently drops an optional filter whose can_apply
     * says 0, which would store an integer dataset uncompressed without a
     * word. */
    if (check_type(api, type, &size, &order) < 0)
        return -1;
    hsize_t dims[GF_MAX_RANK];
    return get_chunk(api, dcpl, size, dims) < 0 ? -1 : 1;
}

static herr_t set_local(const h5_api_t *api, hid_t dcpl, hid_t type, hid_t space)
{
    (void)space;
    if (!api)
        return -1;

    unsigned flags = 0;
    unsigned cd[GF_CD_MAX];
    size_t n = GF_CD_MAX;
    if (api->Pget_filter_by_id2(dcpl, GF_FILTER_ID, &flags, &n, cd, 0, NULL, NULL) < 0) {
        H5_REJECT(api, E_CALLBACK, "glide: cannot read the filter parameters");
        return -1;
    }
    if (n > GF_CD_MAX) {
        H5_REJECT(api, E_BADVALUE,
               "glide: %zu filter parameters given; expected 3 or 4 (mode, mantissa, "
               "exponent[, options]), or 6 with a sentinel value",
               n);
        return -1;
    }
    gf_config cfg;
    char msg[256];
    if (gf_parse(cd, n, &cfg, msg, sizeof msg) < 0) {
        H5_REJECT(api, E_BADVALUE, "%s", msg);
        return -1;
    }

    /* The internal part is always recomputed: a dcpl copied from another
     * dataset (h5repack does this) may carry a different chunk shape, type or
     * fill value than the dataset now being created. */
    size_t size;
    H5T_order_t order;
    if (check_type(api, type, &size, &order) < 0)
        return -1;
    hsize_t dims[GF_MAX_RANK];
    int rank = get_chunk(api, dcpl, size, dims);
    if (rank < 0)
        return -1;
    cfg.dtype = size == 4 ? GLIDE_FLOAT32 : GLIDE_FLOAT64;
    if (cfg.sentinel == GLIDE_SENTINEL_VALUE && size == 4 && (cfg.sentinel_bits >> 32)) {
        H5_ERR(api, E_BADVALUE,
               "glide: the sentinel of a float32 dataset is its 32 bits in cd_values[4]; "
               "cd_values[5] must be 0");
        return -1;
    }
    cfg.byte_order = order == H5T_ORDER_BE ? GF_ORDER_BE : GF_ORDER_LE;
    cfg.rank = (unsigned)rank;
    for (int i = 0; i < rank; i++)
        cfg.dims[i] = (uint32_t)dims[i];

    /* HDF5 pads partial edge chunks with the fill value (or zeros, which is
     * the default fill value); telling the codec keeps the padding exact and
     * out of the REL range. */
    H5D_fill_value_t fill_status;
    if (api->Pfill_value_defined(dcpl, &fill_status) < 0) {
        H5_REJECT(api, E_CALLBACK, "glide: cannot query the dataset's fill value");
        return -1;
    }
    cfg.has_fill = 0;
    cfg.fill_bits = 0;
    if (fill_status == H5D_FILL_VALUE_DEFAULT || fill_status == H5D_FILL_VALUE_USER_DEFINED) {
        unsigned char fill[8] = {0};
        if (api->Pget_fill_value(dcpl, type, fill) < 0) {
            H5_REJECT(api, E_CALLBACK, "glide: cannot read the dataset's fill value");
            return -1;
        }
        cfg.has_fill = 1;
        cfg.fill_bits = gf_load_bits(fill, size, cfg.byte_order);
    }
    cfg.has_internal = 1;

    unsigned out[GF_CD_MAX];
    size_t nout = gf_encode(&cfg, out, GF_CD_MAX);
    if (nout == 0) {
        H5_REJECT(api, E_BADVALUE, "glide: cannot encode the filter parameters");
        return -1;
    }
    if (api->Pmodify_filter(dcpl, GF_FILTER_ID, flags, nout, out) < 0) {
        H5_REJECT(api, E_CALLBACK, "glide: cannot store the filter parameters");
        return -1;
    }
    return 0;
}

static size_t filter(const h5_api_t *api, unsigned flags, size_t cd_nelmts,
                     const unsigned cd_values[], size_t nbytes, size_t *buf_size, void **buf)
{
    if (!api)
        return 0;
    gf_config cfg;
    char msg[256];
    if (gf_parse(cd_values, cd_nelmts, &cfg, msg, sizeof msg) < 0) {
        H5_ERR(api, E_BADVALUE, "%s", msg);
        return 0;
    }
    if (flags & H5Z_FLAG_REVERSE)
        return gf_decompress_chunk(api, &cfg, nbytes, buf_size, buf);
    return gf_compress_chunk(api, &cfg, nbytes, buf_size, buf);
}

/* HDF5 calls the class's callbacks with no context argument, so each bound
 * HDF5 copy gets its own class whose callbacks pass that copy's binding: an
 * HDF5 must never be handed functions or ids of another copy. */
#define SLOT_CALLBACKS(i)                                                                   \
    static htri_t can_apply_##i(hid_t dcpl, hid_t type, hid_t space)                        \
    {                                                                                       \
        return can_apply(h5_api_slot(i), dcpl, type, space);                                \
    }                                                                                       \
    static herr_t set_local_##i(hid_t dcpl, hid_t type, hid_t space)                        \
    {                                                                                       \
        return set_local(h5_api_slot(i), dcpl, type, space);                                \
    }                                                                                       \
    static size_t filter_##i(unsigned flags, size_t cd_nelmts, const unsigned cd_values[],  \
                             size_t nbytes, size_t *buf_size, void **buf)                   \
    {                                                                                       \
        return filter(h5_api_slot(i), flags, cd_nelmts, cd_values, nbytes, buf_size, buf);  \
    }

#define SLOT_CLASS(i)                                                                       \
    {H5Z_CLASS_T_VERS, (H5Z_filter_t)GF_FILTER_ID, 1, 1, GF_FILTER_NAME, can_apply_##i,     \
     set_local_##i, filter_##i}

SLOT_CALLBACKS(0)
SLOT_CALLBACKS(1)
SLOT_CALLBACKS(2)
SLOT_CALLBACKS(3)
SLOT_CALLBACKS(4)
SLOT_CALLBACKS(5)
SLOT_CALLBACKS(6)
SLOT_CALLBACKS(7)

static const H5Z_class2_t glide_classes[] = {
    SLOT_CLASS(0), SLOT_CLASS(1), SLOT_CLASS(2), SLOT_CLASS(3),
    SLOT_CLASS(4), SLOT_CLASS(5), SLOT_CLASS(6), SLOT_CLASS(7),
};
_Static_assert(sizeof glide_classes / sizeof glide_classes[0] == H5_API_SLOTS,
               "one filter class per binding slot");

H5PL_type_t H5PLget_plugin_type(void)
{
    return H5PL_TYPE_FILTER;
}

/* noinline: the return address must be the loader's (a plain call goes
 * through the PLT, so it lies in the calling HDF5), not an inlined caller's
 * inside this object. */
__attribute__((noinline)) const void *H5PLget_plugin_info(void)
{
    const int slot = h5_api_bind(__builtin_return_address(0));
    return slot < 0 ? NULL : &glide_classes[slot];
}

/* For a caller that registers the filter itself (H5Zregister) and is not
 * inside the HDF5 it registers with: Python's ctypes, whose return address
 * lies in libffi, while h5py's wheel loads its libhdf5 RTLD_LOCAL, out of the
 * global namespace. `addr_in_hdf5` is any code address inside that libhdf5
 * (say, its H5open); returns the filter class bound to that copy, or NULL
 * with the reason on stderr. Exported for the h5glide Python package. */
__attribute__((visibility("default"))) const void *glide_h5z_class_for(const void *addr_in_hdf5)
{
    /* no address would mean the global namespace: possibly another HDF5 */
    if (!addr_in_hdf5)
        return NULL;
    const int slot = h5_api_bind(addr_in_hdf5);
    return slot < 0 ? NULL : &glide_classes[slot];
}
