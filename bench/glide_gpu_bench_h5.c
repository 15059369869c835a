/* glide_gpu_bench's part 7: a dataset written and read through HDF5 with
 * no filter, the GLIDE filter on the CPU and on the GPU, each filtered
 * configuration in a child process (this program re-executed with the
 * hidden option --h5), since the plugin reads GLIDE_BACKEND once. */
#define _GNU_SOURCE
#include "glide_gpu_bench.h"
#include "bench_time.h"
#include <hdf5.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ============================================================ HDF5 child */

/* max err / eb over every chunk of a side-n field stored in ch^3 chunks,
 * each against its own REL 1e-3 bound (as the filter applies it) */
static double chunked_err_ratio(const float *x, const float *y, size_t n, size_t ch)
{
    double worst = 0;
    for (size_t cz = 0; cz < n; cz += ch)
        for (size_t cy = 0; cy < n; cy += ch)
            for (size_t cx = 0; cx < n; cx += ch) {
                double lo = INFINITY, hi = -INFINITY, m = 0;
                for (size_t z = cz; z < cz + ch && z < n; z++)
                    for (size_t yy = cy; yy < cy + ch && yy < n; yy++) {
                        size_t base = (z * n + yy) * n;
                        for (size_t xx = cx; xx < cx + ch && xx < n; xx++) {
                            float a = x[base + xx], b = y[base + xx];
                            lo = fmin(lo, a);
                            hi = fmax(hi, a);
                            m = fmax(m, fabs((double)a - (double)b));
                        }
                    }
                double eb = 1e-3 * (hi - lo);
                double r = eb > 0 ? m / eb : (m > 0 ? INFINITY : 0);
                if (r > worst) worst = r;
            }
    return worst;
}

/* One write + read of a dataset; returns 0 or -1. */
static int h5_once(const char *path, const float *x, float *y, size_t n, size_t ch, int filtered, double *tw,
                   double *tr, unsigned long long *stored)
{
    const unsigned cd[3] = {1, 1, 3}; /* REL 1 x 10^-3 */
    hsize_t dims[3] = {n, n, n}, cdims[3] = {ch, ch, ch};
    int rc = -1;
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) return -1;
    hid_t sp = H5Screate_simple(3, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 3, cdims);
    if (filtered && H5Pset_filter(dcpl, GLIDE_FILTER_ID, H5Z_FLAG_MANDATORY, 3, cd) < 0) {
        H5Pclose(dcpl); H5Sclose(sp); H5Fclose(f);
        return -1;
    }
    hid_t d = H5Dcreate2(f, "density", H5T_IEEE_F32LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Pclose(dcpl);
    H5Sclose(sp);
    if (d < 0) { H5Fclose(f); return -1; }
    /* the write is timed to the file's close: chunks left in the chunk cache
     * are filtered and written then */
    double t0 = now();
    herr_t e = H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, x);
    H5Dclose(d);
    H5Fclose(f);
    double t1 = now();
    if (e < 0) return -1;

    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return -1;
    d = H5Dopen2(f, "density", H5P_DEFAULT);
    if (d >= 0) {
        double t2 = now();
        e = H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, y);
        double t3 = now();
        *stored = (unsigned long long)H5Dget_storage_size(d);
        H5Dclose(d);
        if (e >= 0) {
            *tw = t1 - t0;
            *tr = t3 - t2;
            rc = 0;
        }
    }
    H5Fclose(f);
    return rc;
}

/* --h5 MODE CHUNK SIDE RAWFILE H5FILE RUNS: MODE none|cpu|gpu (GLIDE_BACKEND
 * is set by the parent). Prints one line:
 *   H5RES ok=1 runs=R write_s=.. read_s=.. stored=.. maxerr=..   (medians) */
int h5_child(int argc, char **argv)
{
    if (argc < 8) {
        printf("H5RES ok=0 error=usage\n");
        return 2;
    }
    const char *mode = argv[2];
    size_t ch = (size_t)atol(argv[3]), n = (size_t)atol(argv[4]);
    const char *raw = argv[5], *path = argv[6];
    int runs = atoi(argv[7]);
    if (runs < 1) runs = 1;
    if (runs > MAXR) runs = MAXR;
    int filtered = strcmp(mode, "none") != 0;
    size_t N = n * n * n;
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    if (!x || !y) { printf("H5RES ok=0 error=nomem\n"); return 1; }
    FILE *rf = fopen(raw, "rb");
    if (!rf || fread(x, sizeof(float), N, rf) != N) {
        printf("H5RES ok=0 error=raw-read\n");
        if (rf) fclose(rf);
        return 1;
    }
    fclose(rf);
    if (filtered && H5Zfilter_avail(GLIDE_FILTER_ID) <= 0) {
        printf("H5RES ok=0 error=filter-not-found\n");
        return 1;
    }
    /* warm-up, not timed: loads the plugin and sets the GPU up, as the first
     * write of a simulation's run would */
    {
        size_t wn = n < 64 ? n : 64, wc = ch < wn ? ch : wn;
        char wpath[4096];
        snprintf(wpath, sizeof wpath, "%s.warm", path);
        float *wx = malloc(wn * wn * wn * sizeof(float)), *wy = malloc(wn * wn * wn * sizeof(float));
        double a, b;
        unsigned long long s;
        if (!wx || !wy) { printf("H5RES ok=0 error=nomem\n"); return 1; }
        extract(x, n, 0, 0, 0, wn, wx);
        if (h5_once(wpath, wx, wy, wn, wc, filtered, &a, &b, &s) != 0) {
            printf("H5RES ok=0 error=warmup-write-read-failed\n");
            unlink(wpath);
            return 1;
        }
        unlink(wpath);
        free(wx);
        free(wy);
    }
    double tw[MAXR], tr[MAXR];
    unsigned long long stored = 0;
    for (int r = 0; r < runs; r++) {
        memset(y, 0, N * sizeof(float));
        int rc = h5_once(path, x, y, n, ch, filtered, &tw[r], &tr[r], &stored);
        unlink(path); /* drop the file between runs */
        if (rc != 0) {
            printf("H5RES ok=0 error=write-read-failed\n");
            return 1;
        }
    }
    double maxerr;
    if (filtered) {
        maxerr = chunked_err_ratio(x, y, n, ch);
    } else {
        maxerr = memcmp(x, y, N * sizeof(float)) ? INFINITY : 0;
    }
    printf("H5RES ok=1 runs=%d write_s=%.6f read_s=%.6f stored=%llu maxerr=%.6f\n", runs, median(tw, runs),
           median(tr, runs), stored, maxerr);
    fflush(stdout);
    free(x);
    free(y);
    return 0;
}

/* ============================================================ 7. HDF5 end to end */

static char **child_env(const char *backend, const char *plugin)
{
    size_t n = 0;
    while (environ[n]) n++;
    char **e = xmalloc((n + 3) * sizeof *e);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "GLIDE_BACKEND=", 14) && strncmp(environ[i], "HDF5_PLUGIN_PATH=", 17))
            e[k++] = environ[i];
    size_t lb = strlen(backend) + 32, lp = strlen(plugin) + 32;
    e[k] = xmalloc(lb);
    snprintf(e[k++], lb, "GLIDE_BACKEND=%s", backend);
    e[k] = xmalloc(lp);
    snprintf(e[k++], lp, "HDF5_PLUGIN_PATH=%s", plugin);
    e[k] = NULL;
    return e;
}

typedef struct {
    int ok, runs;
    double ws, rs, maxerr;
    unsigned long long stored;
    char why[200];
} h5_res;

/* Runs this program as `--h5 MODE CH N RAW H5 RUNS` with GLIDE_BACKEND=MODE. */
static void spawn_h5(h5_res *R, const char *mode, size_t ch, size_t n, const char *raw, const char *h5, int runs,
                     const char *plugin)
{
    memset(R, 0, sizeof *R);
    char a_ch[32], a_n[32], a_r[32];
    snprintf(a_ch, sizeof a_ch, "%zu", ch);
    snprintf(a_n, sizeof a_n, "%zu", n);
    snprintf(a_r, sizeof a_r, "%d", runs);
    char *args[] = {g_exe, "--h5", (char *)mode, a_ch, a_n, (char *)raw, (char *)h5, a_r, NULL};
    char **env = child_env(!strcmp(mode, "none") ? "cpu" : mode, plugin);
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) != 0) {
        snprintf(R->why, sizeof R->why, "pipe failed: %s", strerror(errno));
        goto out;
    }
    flush_all();
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    pid_t pid;
    int e = posix_spawn(&pid, g_exe, &fa, NULL, args, env);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (e != 0) {
        close(fd[0]);
        snprintf(R->why, sizeof R->why, "cannot run %.120s: %s", g_exe, strerror(e));
        goto out;
    }
    char buf[65536];
    size_t len = 0;
    for (;;) {
        ssize_t got = read(fd[0], buf + len, sizeof buf - 1 - len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        len += (size_t)got;
        if (len >= sizeof buf - 1) len = 0; /* keep reading; the result line comes last */
    }
    buf[len] = 0;
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    char *line = strstr(buf, "H5RES ");
    if (!line) {
        if (WIFSIGNALED(status))
            snprintf(R->why, sizeof R->why, "child killed by signal %d", WTERMSIG(status));
        else
            snprintf(R->why, sizeof R->why, "child exited %d without a result", WEXITSTATUS(status));
        goto out;
    }
    int ok = 0;
    if (sscanf(line, "H5RES ok=%d runs=%d write_s=%lf read_s=%lf stored=%llu maxerr=%lf", &ok, &R->runs, &R->ws,
               &R->rs, &R->stored, &R->maxerr) == 6 &&
        ok == 1) {
        R->ok = 1;
    } else {
        char *er = strstr(line, "error=");
        snprintf(R->why, sizeof R->why, "failed: %.*s", er ? (int)strcspn(er + 6, "\n") : 20, er ? er + 6 : line);
    }
out:
    {
        /* env holds environ's own strings, then the two made by child_env */
        size_t k = 0;
        while (env[k]) k++;
        free(env[k - 1]);
        free(env[k - 2]);
    }
    free(env);
}

/* HDF5_PLUGIN_PATH entries holding libh5z_glide.so? */
static int plugin_found(const char *path)
{
    char part[4096];
    const char *p = path;
    while (*p) {
        size_t l = strcspn(p, ":");
        if (l > 0 && l < sizeof part - 32) {
            memcpy(part, p, l);
            snprintf(part + l, sizeof part - l, "/libh5z_glide.so");
            struct stat sb;
            if (stat(part, &sb) == 0) return 1;
        }
        p += l;
        if (*p == ':') p++;
    }
    return 0;
}

void section_h5(const float *x, size_t n, const char *tmpdir, const char *plugin)
{
    const size_t N = n * n * n;
    const double mb = (double)N * 4 / 1e6;
    char raw[4096], h5[4096], cn[32];
    snprintf(raw, sizeof raw, "%s/glide_gpu_bench_%d.raw", tmpdir, (int)getpid());
    int have_plugin = plugin_found(plugin);
    struct statfs fs;
    const char *fstype = statfs(tmpdir, &fs) != 0 ? "unknown filesystem"
                         : (unsigned long)fs.f_type == 0x01021994ul ? "tmpfs, in memory"
                                                                    : "a disk filesystem; writes end in the page cache, no fsync";
    say("## 7. End to end through HDF5\n\n");
    say("%zu³ float32 Nyx-like density (%.1f MB) written with one H5Dwrite and read with one H5Dread, chunks 64³ "
        "and 128³, into %s (%s). GLIDE filter %d with cd_values {1, 1, 3} (REL 1e-3), H5Z_FLAG_MANDATORY, as "
        "examples/glide_demo.c; the backend by GLIDE_BACKEND, one child process per row (the plugin reads it "
        "once). Each child first writes and reads a small dataset untimed (plugin load, GPU setup). Write = "
        "H5Dwrite to H5Fclose (chunks flushed); read = H5Dread of the reopened file. MB/s of uncompressed bytes, "
        "median of the runs, the file removed between runs. max err/eb: every chunk against its own REL bound "
        "(no filter: 0 = bit-exact). Plugin path: %s%s.\n\n",
        n, mb, tmpdir, fstype, GLIDE_FILTER_ID, plugin, have_plugin ? "" : " (**libh5z_glide.so not found there**)");
    say("| chunk | filter | runs | H5Dwrite MB/s | H5Dread MB/s | write s | read s | file MB | CR | max err/eb |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n");
    FILE *f = fopen(raw, "wb");
    int wrote = f && fwrite(x, sizeof(float), N, f) == N;
    if (f && fclose(f) != 0) wrote = 0;
    if (!wrote) {
        say("| all | | | not run: cannot write %s (%s) | | | | | | |\n\n", raw, strerror(errno));
        unlink(raw);
        return;
    }
    static const size_t chunks[2] = {64, 128};
    static const char *modes[3] = {"none", "cpu", "gpu"};
    static const char *labels[3] = {"none", "GLIDE, GLIDE_BACKEND=cpu", "GLIDE, GLIDE_BACKEND=gpu"};
    for (int c = 0; c < 2; c++)
        for (int m = 0; m < 3; m++) {
            int runs = (m == 1 && n >= 512) ? 1 : 3;
            if (m == 2 && !g_gpu) {
                say("| %s | %s | | %s | | | | | | |\n", cube_name(cn, chunks[c]), labels[m], g_nogpu_why);
                continue;
            }
            if (m > 0 && !have_plugin) {
                say("| %s | %s | | not run: plugin not found | | | | | | |\n", cube_name(cn, chunks[c]), labels[m]);
                continue;
            }
            snprintf(h5, sizeof h5, "%s/glide_gpu_bench_%d_%s_%zu.h5", tmpdir, (int)getpid(), modes[m], chunks[c]);
            h5_res R;
            double t0 = now();
            spawn_h5(&R, modes[m], chunks[c], n, raw, h5, runs, plugin);
            unlink(h5);
            fprintf(stderr, "glide_gpu_bench: HDF5 %zu^3 chunks, %s: %.1f s\n", chunks[c], modes[m], now() - t0);
            if (!R.ok) {
                say("| %s | %s | | %s | | | | | | |\n", cube_name(cn, chunks[c]), labels[m], R.why);
                continue;
            }
            char er[64];
            if (m == 0) snprintf(er, sizeof er, "%s", R.maxerr == 0 ? "0 (exact)" : "**data differ**");
            else snprintf(er, sizeof er, "%.4f%s", R.maxerr, R.maxerr <= 1.0 ? "" : " **OVER**");
            say("| %s | %s | %d | %.0f | %.0f | %.3f | %.3f | %.1f | %.2f | %s |\n", cube_name(cn, chunks[c]),
                labels[m], R.runs, mb / R.ws, mb / R.rs, R.ws, R.rs, R.stored / 1e6,
                R.stored ? (double)N * 4 / (double)R.stored : 0, er);
        }
    say("\n");
    unlink(raw);
}

