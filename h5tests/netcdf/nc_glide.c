/* GLIDE through netCDF-C's own API (nc_def_var_filter), for h5tests/netcdf.
 *
 *   nc_glide write OUT.nc ORIG.raw
 *       Creates a netCDF-4 file with one float variable "v" (8, 60, 90),
 *       chunks (4, 30, 45), _FillValue 1e20 on a "land" mask, and the GLIDE
 *       filter set with nc_def_var_filter(ncid, varid, 45123, 3, {1, 1, 3})
 *       (REL 1e-3); writes the field, closes. The values written go to
 *       ORIG.raw (native float32, C order) for the Python side.
 *   nc_glide plain OUT.nc ORIG.raw
 *       The same field without the land mask, _FillValue or any filter
 *       (input for nccopy -F).
 *   nc_glide check FILE.nc VAR ORIG.raw MODE MANTISSA EXPONENT [DECODED.raw]
 *       Reopens FILE.nc with netCDF-C, requires filter 45123 on VAR (with
 *       nc_inq_var_filter_ids / nc_inq_var_filter_info), reads VAR with
 *       nc_get_var_float and checks, chunk by chunk (the chunking netCDF
 *       reports), that every finite value that is not the variable's fill
 *       value is within eb (MODE 0) or eb * (max - min) of its chunk's finite
 *       non-fill values (MODE 1), and that fill values (the _FillValue
 *       attribute, else netCDF's default float fill) and non-finite values
 *       come back bit for bit. Prints the worst error / bound; exit 0 only if
 *       everything holds. DECODED.raw, if given, receives the values read.
 *
 * Exit status: 0 pass, 1 bound or exactness violated, 2 netCDF or usage error.
 */
#include <math.h>
#include <netcdf.h>
#include <netcdf_filter.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLIDE_ID 45123u
#define MAXRANK 8
#define NT 8
#define NY 60
#define NX 90

#define NCCHECK(call)                                                                  \
    do {                                                                               \
        int rc_ = (call);                                                              \
        if (rc_ != NC_NOERR) {                                                         \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
                    nc_strerror(rc_));                                                 \
            exit(2);                                                                   \
        }                                                                              \
    } while (0)

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* A smooth SST-like field, about 271..303, with a block of "land" at fill. */
static void make_field(float *x, float fill, int with_land)
{
    for (int t = 0; t < NT; t++)
        for (int y = 0; y < NY; y++)
            for (int i = 0; i < NX; i++) {
                size_t k = ((size_t)t * NY + (size_t)y) * NX + (size_t)i;
                double lat = -1.4 + 2.8 * y / (NY - 1), lon = 6.28 * i / NX;
                double v = 287.0 + 15.0 * cos(lat) * (1.0 + 0.1 * sin(lon + 0.3 * t)) +
                           0.5 * sin(7.0 * lon) * cos(3.0 * lat + 0.2 * t);
                int land = (y > 20 && y < 40 && i > 30 && i < 55) || (y < 4 && i % 17 < 5);
                x[k] = land && with_land ? fill : (float)v;
            }
}

static int write_file(const char *path, const char *raw, int filtered)
{
    static float x[NT * NY * NX];
    const float fill = 1e20f;
    make_field(x, fill, filtered);

    int ncid, dims[3], varid;
    NCCHECK(nc_create(path, NC_CLOBBER | NC_NETCDF4, &ncid));
    NCCHECK(nc_def_dim(ncid, "time", NT, &dims[0]));
    NCCHECK(nc_def_dim(ncid, "lat", NY, &dims[1]));
    NCCHECK(nc_def_dim(ncid, "lon", NX, &dims[2]));
    NCCHECK(nc_def_var(ncid, "v", NC_FLOAT, 3, dims, &varid));
    const size_t chunks[3] = {4, 30, 45};
    NCCHECK(nc_def_var_chunking(ncid, varid, NC_CHUNKED, chunks));
    if (filtered) {
        NCCHECK(nc_def_var_fill(ncid, varid, NC_FILL, &fill));
        const unsigned params[3] = {1, 1, 3}; /* REL, 1 x 10^-3 */
        NCCHECK(nc_def_var_filter(ncid, varid, GLIDE_ID, 3, params));
    }
    NCCHECK(nc_enddef(ncid));
    NCCHECK(nc_put_var_float(ncid, varid, x));
    NCCHECK(nc_close(ncid));

    FILE *f = fopen(raw, "wb");
    if (!f || fwrite(x, sizeof x, 1, f) != 1 || fclose(f) != 0) {
        perror(raw);
        return 2;
    }
    return 0;
}

static int check_file(int argc, char **argv)
{
    const char *path = argv[2], *var = argv[3], *raw = argv[4];
    const int mode = atoi(argv[5]);
    const double eb = atof(argv[6]) * pow(10.0, -atof(argv[7]));
    const char *out = argc > 8 ? argv[8] : NULL;

    int ncid, varid, ndims, dimids[MAXRANK];
    nc_type type;
    NCCHECK(nc_open(path, NC_NOWRITE, &ncid));
    NCCHECK(nc_inq_varid(ncid, var, &varid));
    NCCHECK(nc_inq_var(ncid, varid, NULL, &type, &ndims, dimids, NULL));
    if (type != NC_FLOAT || ndims < 1 || ndims > MAXRANK) {
        fprintf(stderr, "%s: want a float variable of rank 1..%d\n", var, MAXRANK);
        return 2;
    }

    /* The filter must be in the variable's pipeline, with the user's params. */
    size_t nf = 0;
    unsigned ids[16];
    NCCHECK(nc_inq_var_filter_ids(ncid, varid, &nf, NULL));
    if (nf > 16) {
        fprintf(stderr, "too many filters (%zu)\n", nf);
        return 2;
    }
    NCCHECK(nc_inq_var_filter_ids(ncid, varid, &nf, ids));
    int found = 0;
    for (size_t i = 0; i < nf; i++)
        found |= ids[i] == GLIDE_ID;
    if (!found) {
        fprintf(stderr, "FAIL %s: filter %u not in the variable's %zu filters\n", var,
                GLIDE_ID, nf);
        return 1;
    }
    size_t np = 0;
    unsigned params[64];
    NCCHECK(nc_inq_var_filter_info(ncid, varid, GLIDE_ID, &np, NULL));
    if (np < 3 || np > 64) {
        fprintf(stderr, "FAIL: filter has %zu params\n", np);
        return 1;
    }
    NCCHECK(nc_inq_var_filter_info(ncid, varid, GLIDE_ID, &np, params));
    printf("filter %u params:", GLIDE_ID);
    for (size_t i = 0; i < np; i++)
        printf(" %u", params[i]);
    printf("\n");

    size_t shape[MAXRANK], chunk[MAXRANK], n = 1;
    int storage;
    for (int d = 0; d < ndims; d++) {
        NCCHECK(nc_inq_dimlen(ncid, dimids[d], &shape[d]));
        n *= shape[d];
    }
    NCCHECK(nc_inq_var_chunking(ncid, varid, &storage, chunk));
    if (storage != NC_CHUNKED) {
        fprintf(stderr, "FAIL: variable not chunked\n");
        return 1;
    }
    /* The missing-value marker is the _FillValue attribute, whether or not
     * the variable is in no-fill mode (nccopy writes no-fill variables);
     * without the attribute, netCDF's default fill for floats. */
    float fill = NC_FILL_FLOAT;
    nc_type att_type;
    size_t att_len;
    if (nc_inq_att(ncid, varid, "_FillValue", &att_type, &att_len) == NC_NOERR) {
        if (att_type != NC_FLOAT || att_len != 1) {
            fprintf(stderr, "%s: _FillValue is not one float\n", var);
            return 2;
        }
        NCCHECK(nc_get_att_float(ncid, varid, "_FillValue", &fill));
    }

    float *orig = malloc(n * sizeof *orig), *dec = malloc(n * sizeof *dec);
    if (!orig || !dec) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    FILE *f = fopen(raw, "rb");
    if (!f || fread(orig, sizeof *orig, n, f) != n) {
        fprintf(stderr, "%s: cannot read %zu floats\n", raw, n);
        return 2;
    }
    fclose(f);
    NCCHECK(nc_get_var_float(ncid, varid, dec));
    NCCHECK(nc_close(ncid));
    if (out) {
        FILE *o = fopen(out, "wb");
        if (!o || fwrite(dec, sizeof *dec, n, o) != n || fclose(o) != 0) {
            perror(out);
            return 2;
        }
    }

    /* Walk the chunks: the chunk grid over the variable, row-major. */
    size_t nchunks[MAXRANK], total = 1;
    for (int d = 0; d < ndims; d++) {
        nchunks[d] = (shape[d] + chunk[d] - 1) / chunk[d];
        total *= nchunks[d];
    }
    const uint32_t fill_bits = fbits(fill);
    double worst = 0;
    long bad = 0, bad_exact = 0, checked = 0;
    for (size_t c = 0; c < total; c++) {
        size_t lo[MAXRANK], hi[MAXRANK], rem = c;
        for (int d = ndims - 1; d >= 0; d--) {
            size_t ci = rem % nchunks[d];
            rem /= nchunks[d];
            lo[d] = ci * chunk[d];
            hi[d] = lo[d] + chunk[d] < shape[d] ? lo[d] + chunk[d] : shape[d];
        }
        double mn = INFINITY, mx = -INFINITY;
        for (int pass = 0; pass < 2; pass++) {
            const double bound = mode == 0 ? eb : eb * (mx - mn);
            size_t idx[MAXRANK];
            memcpy(idx, lo, sizeof idx);
            for (;;) {
                size_t k = 0;
                for (int d = 0; d < ndims; d++)
                    k = k * shape[d] + idx[d];
                const float o = orig[k], r = dec[k];
                const int exact = !isfinite(o) || fbits(o) == fill_bits;
                if (pass == 0 && !exact) {
                    mn = o < mn ? o : mn;
                    mx = o > mx ? o : mx;
                } else if (pass == 1 && exact) {
                    if (fbits(o) != fbits(r) && bad_exact++ < 5)
                        fprintf(stderr, "FAIL: index %zu: %g must come back exactly, got %g\n",
                                k, (double)o, (double)r);
                } else if (pass == 1) {
                    const double e = fabs((double)o - (double)r);
                    checked++;
                    if (!(e <= bound)) {
                        if (bad++ < 5)
                            fprintf(stderr,
                                    "FAIL: index %zu: orig %.9g decoded %.9g |err| %g > %g\n",
                                    k, (double)o, (double)r, e, bound);
                    } else if (bound > 0 && e / bound > worst) {
                        worst = e / bound;
                    }
                }
                int d = ndims - 1;
                while (d >= 0 && ++idx[d] == hi[d]) {
                    idx[d] = lo[d];
                    d--;
                }
                if (d < 0)
                    break;
            }
        }
    }
    free(orig);
    free(dec);
    printf("%s: %zu chunks, %ld values checked, max err/bound %.4f, %ld out of bound, "
           "%ld exact values changed\n",
           var, total, checked, worst, bad, bad_exact);
    return bad || bad_exact || checked == 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "write") == 0)
        return write_file(argv[2], argv[3], 1);
    if (argc == 4 && strcmp(argv[1], "plain") == 0)
        return write_file(argv[2], argv[3], 0);
    if ((argc == 8 || argc == 9) && strcmp(argv[1], "check") == 0)
        return check_file(argc, argv);
    fprintf(stderr, "usage: %s write|plain OUT.nc ORIG.raw\n"
                    "       %s check FILE.nc VAR ORIG.raw MODE MANTISSA EXPONENT [DECODED.raw]\n",
            argv[0], argv[0]);
    return 2;
}
