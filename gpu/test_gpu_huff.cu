/* Device entropy stage against the CPU reference: gg_book_select,
 * gg_huff_encode, gg_huff_decode and gg_crc32 (gpu/gg_huff.h) must give
 * exactly what glide_book_select, glide_huff_encode, glide_huff_decode and
 * glide_crc32 give. One line per check, then a summary; exit 1 on any
 * failure, 77 (ctest's skip, with a message) when there is no CUDA device.
 * Options: -q skips the largest inputs (for compute-sanitizer runs),
 *          -t also prints timings, -T prints timings only,
 *          -P makes one call of each kind and exits (for ncu).
 * Format 5's planes are tested in test_gpu_huff_planes.cu, format 8's
 * run-coded planes in test_gpu_runs.cu; the helpers all use are in
 * test_gpu_huff.h. */
#include "test_gpu_huff.h"

int g_checks, g_fails;
bool g_quick, g_timing, g_checks_on = true, g_profile;
uint64_t g_rng = 0x9E3779B97F4A7C15ull;

void check(bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_checks++;
    if (!ok) g_fails++;
    printf("%s ", ok ? "ok  " : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* ---- symbol sources ---- */
static const char *dist_name[] = {"laplace", "wide", "uniform", "single", "two", "edges"};

std::vector<uint16_t> make_symbols(int dist, uint64_t n)
{
    std::vector<uint16_t> s(n);
    const double scale = dist == DIST_LAPLACE ? 1.5 : 60.0;
    const uint16_t single = (uint16_t)rbelow(GLIDE_NSYM);
    for (uint64_t i = 0; i < n; i++) {
        switch (dist) {
        case DIST_LAPLACE:
        case DIST_WIDE: {
            const double u = urand() - 0.5;
            const double x = -scale * (u < 0 ? -1 : 1) * log(1 - 2 * fabs(u) + 1e-300);
            long q = lround(x);
            int v = (q < -511 || q > 511) ? GLIDE_SYM_OUTLIER : (int)(q + GLIDE_SYM_ZERO);
            if (rbelow(1000) == 0) v = GLIDE_SYM_FILL;
            if (rbelow(2000) == 0) v = GLIDE_SYM_OUTLIER;
            s[i] = (uint16_t)v;
            break;
        }
        case DIST_UNIFORM: s[i] = (uint16_t)rbelow(GLIDE_NSYM); break;
        case DIST_SINGLE: s[i] = single; break;
        case DIST_TWO: s[i] = rbelow(8) ? GLIDE_SYM_ZERO : GLIDE_SYM_FILL; break;
        default: s[i] = rbelow(2) ? 0 : GLIDE_NSYM - 1; break;
        }
    }
    return s;
}

void histogram(const std::vector<uint16_t> &s, uint64_t *h)
{
    memset(h, 0, GLIDE_NSYM * sizeof *h);
    for (uint16_t v : s) h[v]++;
}

/* ---- timing (-t / -T) ---- */
__global__ void k_spin(long long cycles)
{
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

void warm_gpu(void)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    for (int i = 0; i < 3; i++) k_spin<<<prop.multiProcessorCount * 4, 256>>>(100000000LL);
    CK(cudaDeviceSynchronize());
}

/* ---- CRC ---- */
static void test_crc(void)
{
    const size_t big = g_quick ? ((size_t)3 << 20) : ((size_t)300 << 20);
    std::vector<uint8_t> h(big + 64);
    for (size_t i = 0; i < h.size(); i++) h[i] = (uint8_t)(rnd() >> 56);
    uint8_t *d = dalloc<uint8_t>(h.size());
    CK(cudaMemcpy(d, h.data(), h.size(), cudaMemcpyHostToDevice));
    uint32_t *d_crc = dalloc<uint32_t>(1), *tk = dticket();
    size_t sb = gg_crc32_scratch(big + 64);
    void *scr = dscratch(sb);
    if (g_checks_on) {
    int bad = 0, n_small = 0;
    for (size_t n = 0; n <= 1000; n++) {
        for (size_t off = 0; off < 16; off += (n < 64 ? 1 : 5)) {
            CK(gg_crc32(d + off, n, d_crc, tk, scr, sb, 0));
            uint32_t g;
            CK(cudaMemcpy(&g, d_crc, 4, cudaMemcpyDeviceToHost));
            const uint32_t c = glide_crc32(h.data() + off, n);
            n_small++;
            if (g != c) {
                if (bad++ < 5) printf("     crc n=%zu off=%zu gpu %08x cpu %08x\n", n, off, g, c);
            }
        }
    }
    check(bad == 0, "crc32 sizes 0..1000 at offsets 0..15 (%d cases, %d wrong)", n_small, bad);
    const size_t sizes[] = {4096, 65536 + 3, (size_t)1 << 20, ((size_t)3 << 20) + 5, ((size_t)16 << 20) + 1,
                            ((size_t)128 << 20) + 17, big};
    for (size_t n : sizes) {
        if (n > big) continue;
        for (size_t off : {(size_t)0, (size_t)7}) {
            if (n + off > h.size()) continue;
            const size_t need = gg_crc32_scratch(n);
            check(need <= sb, "crc32 scratch for %zu bytes (%zu) within the one for %zu", n, need, big + 64);
            CK(gg_crc32(d + off, n, d_crc, tk, scr, need, 0));
            uint32_t g;
            CK(cudaMemcpy(&g, d_crc, 4, cudaMemcpyDeviceToHost));
            const uint32_t c = glide_crc32(h.data() + off, n);
            check(g == c, "crc32 %zu bytes at offset %zu: gpu %08x cpu %08x", n, off, g, c);
        }
    }
    /* length known only on the device, bounded by n_max */
    {
        uint64_t *d_n = dalloc<uint64_t>(1);
        int bad = 0, cases = 0;
        const size_t lens[] = {0, 1, 15, 16, 17, 333, 4096, 100000, ((size_t)2 << 20) + 9};
        for (size_t n : lens) {
            for (size_t n_max : {n, n + 1, n + 1000, 2 * n + 5000, (size_t)3 << 20}) {
                if (n_max < n || n_max + 3 > h.size()) continue;
                const size_t off = (size_t)rbelow(4);
                const uint64_t n64 = n;
                CK(cudaMemcpy(d_n, &n64, 8, cudaMemcpyHostToDevice));
                CK(gg_crc32_dn(d + off, n_max, d_n, d_crc, tk, scr, gg_crc32_scratch(n_max), 0));
                uint32_t g;
                CK(cudaMemcpy(&g, d_crc, 4, cudaMemcpyDeviceToHost));
                const uint32_t c = glide_crc32(h.data() + off, n);
                cases++;
                if (g != c && bad++ < 5) printf("     crc32_dn n=%zu n_max=%zu: gpu %08x cpu %08x\n", n, n_max, g, c);
            }
        }
        check(bad == 0, "crc32_dn: %d lengths known on the device under bounds n_max, %d wrong", cases, bad);
        /* the store variant: the same CRC, and its 4 LE bytes right after the n bytes (none for n = 0) */
        uint8_t *d2 = dalloc<uint8_t>(((size_t)3 << 20) + 16);
        int sbad = 0, scases = 0;
        for (size_t n : lens) {
            for (size_t n_max : {n, n + 1000, (size_t)3 << 20}) {
                if (n_max < n || n_max > ((size_t)3 << 20) || n_max + 16 > h.size()) continue;
                const size_t off = (size_t)rbelow(4);
                const uint64_t n64 = n;
                CK(cudaMemcpy(d2, h.data(), n_max + 16, cudaMemcpyHostToDevice));
                CK(cudaMemcpy(d_n, &n64, 8, cudaMemcpyHostToDevice));
                CK(gg_crc32_dn_store(d2 + off, n_max, d_n, d_crc, tk, scr, gg_crc32_scratch(n_max), 0));
                uint8_t got[8];
                uint32_t g;
                CK(cudaMemcpy(got, d2 + off + n, 8, cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(&g, d_crc, 4, cudaMemcpyDeviceToHost));
                const uint32_t c = glide_crc32(h.data() + off, n);
                bool ok = g == c;
                for (int k = 0; k < 8; k++) {
                    const uint8_t want = n && k < 4 ? (uint8_t)(c >> (8 * k)) : h[off + n + k];
                    ok = ok && got[k] == want;
                }
                scases++;
                if (!ok && sbad++ < 5) printf("     crc32_dn_store n=%zu n_max=%zu: wrong crc or bytes\n", n, n_max);
            }
        }
        check(sbad == 0, "crc32_dn_store: %d cases, CRC stored after the covered bytes, %d wrong", scases, sbad);
        /* the check variant: a trailing CRC that matches leaves the flag alone, a wrong one sets it */
        uint32_t *d_bad = dalloc<uint32_t>(1);
        int cbad = 0, ccases = 0;
        for (size_t n : lens) {
            const uint32_t c = glide_crc32(h.data(), n);
            for (int flip = 0; flip < 2; flip++) {
                std::vector<uint8_t> t(h.begin(), h.begin() + n + 4);
                for (int k = 0; k < 4; k++) t[n + k] = (uint8_t)(c >> (8 * k));
                if (flip) t[n + (n % 4)] ^= (uint8_t)(1u << (n % 8));
                CK(cudaMemcpy(d2, t.data(), n + 4, cudaMemcpyHostToDevice));
                CK(cudaMemset(d_bad, 0, 4));
                CK(gg_crc32_check(d2, n, d_crc, d_bad, tk, scr, gg_crc32_scratch(n), 0));
                ccases++;
                if ((dread32(d_bad) != (uint32_t)flip || dread32(d_crc) != c) && cbad++ < 5)
                    printf("     crc32_check n=%zu flipped=%d: flag %u\n", n, flip, dread32(d_bad));
            }
        }
        check(cbad == 0, "crc32_check: %d cases, a wrong trailing CRC flagged and a right one not, %d wrong", ccases,
              cbad);
        check(dread32(tk) == 0, "crc32: the blocks' counter is back to zero after every call");
        CK(cudaFree(d_bad));
        CK(cudaFree(d2));
        CK(cudaFree(d_n));
    }
    }
    if (g_timing) {
        warm_gpu();
        for (size_t n : {(size_t)0, (size_t)4096, (size_t)1 << 20, (size_t)4 << 20, (size_t)64 << 20, big}) {
            if (n > big) continue;
            const double us = time_us([&] { CK(gg_crc32(d, n, d_crc, tk, scr, sb, 0)); }, 20);
            printf("time crc32 %zu bytes: %.2f us (%.1f GB/s)\n", n, us, n / (1e3 * us));
        }
    }
    CK(cudaFree(scr));
    CK(cudaFree(d_crc));
    CK(cudaFree(tk));
    CK(cudaFree(d));
}

/* ---- book selection ---- */
dev_dict upload_dict(const glide_dictionary *d, unsigned off)
{
    std::vector<uint8_t> l((size_t)d->n_books * GLIDE_NSYM);
    std::vector<float> q((size_t)d->n_books * GLIDE_NSYM);
    const bool has_q = d->books[0].log2q != NULL; /* v1 only: v2 books are scored by size */
    for (unsigned b = 0; b < d->n_books; b++) {
        memcpy(&l[(size_t)b * GLIDE_NSYM], d->books[b].len, GLIDE_NSYM);
        if (has_q) memcpy(&q[(size_t)b * GLIDE_NSYM], d->books[b].log2q, GLIDE_NSYM * sizeof(float));
    }
    dev_dict r;
    r.len = dalloc<uint8_t>(l.size() + off);
    r.log2q = has_q ? dalloc<float>(q.size()) : NULL;
    CK(cudaMemcpy(r.len + off, l.data(), l.size(), cudaMemcpyHostToDevice));
    if (has_q) CK(cudaMemcpy(r.log2q, q.data(), q.size() * sizeof(float), cudaMemcpyHostToDevice));
    r.g.len = r.len + off;
    r.g.log2q = r.log2q;
    r.g.n_books = d->n_books;
    return r;
}

gg_select_work *sel_work(void)
{
    static gg_select_work *w;
    if (!w) {
        w = dalloc<gg_select_work>(1);
        CK(cudaMemset(w, 0, sizeof *w));
    }
    return w;
}

static int select_compare(const glide_dictionary *d, const dev_dict &dd, const uint64_t *hist, uint64_t *d_hist,
                          gg_select *d_out, int score, char *why, size_t why_len)
{
    uint64_t cbits = 0;
    const unsigned cbook = glide_book_select(d, hist, (glide_score)score, &cbits);
    CK(cudaMemcpy(d_hist, hist, GLIDE_NSYM * sizeof(uint64_t), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0xEE, sizeof(gg_select)));
    CK(gg_book_select(d_hist, dd.g, score, d_out, sel_work(), 0));
    gg_select g;
    CK(cudaMemcpy(&g, d_out, sizeof g, cudaMemcpyDeviceToHost));
    snprintf(why, why_len, "gpu book %u bits %llu, cpu book %u bits %llu", g.book, (unsigned long long)g.bits, cbook,
             (unsigned long long)cbits);
    return g.book == cbook && g.bits == cbits && g.pad == 0;
}

/* n_scores 2: SIZE and CE (v1, which has log2q); 1: SIZE only */
static void test_select(const glide_dictionary *d, int n_scores)
{
    dev_dict dd = upload_dict(d), dd3 = upload_dict(d, 3);
    uint64_t *d_hist = dalloc<uint64_t>(GLIDE_NSYM);
    gg_select *d_out = dalloc<gg_select>(1);
    std::vector<uint64_t> hist(GLIDE_NSYM);
    char why[200];
    if (g_checks_on) {
    for (int score = 0; score < n_scores; score++) {
        int bad = 0, cases = 0;
        for (int trial = 0; trial < 300; trial++) {
            std::fill(hist.begin(), hist.end(), 0);
            const int kind = trial % 6;
            const double scale = 0.05 + 200 * urand() * urand();
            const uint64_t total = kind == 5 ? ((uint64_t)1 << 40) : 1 + rbelow((uint64_t)1 << (trial % 31));
            if (kind == 0) {
                /* empty histogram: every cost ties at zero */
            } else if (kind == 1) {
                hist[rbelow(GLIDE_NSYM)] = total;
            } else if (kind == 2) {
                for (int i = 0; i < GLIDE_NSYM; i++) hist[i] = rbelow(1000);
            } else {
                for (uint64_t k = 0; k < 4000; k++) {
                    const double u = urand() - 0.5;
                    long q = lround(-scale * (u < 0 ? -1 : 1) * log(1 - 2 * fabs(u) + 1e-300));
                    const int v = (q < -511 || q > 511) ? GLIDE_SYM_OUTLIER : (int)(q + GLIDE_SYM_ZERO);
                    hist[v] += 1 + total / 4000 * (rnd() & 1);
                }
            }
            cases++;
            if (!select_compare(d, trial & 1 ? dd3 : dd, hist.data(), d_hist, d_out, score, why, sizeof why)) {
                if (bad++ < 5) printf("     select score %d trial %d: %s\n", score, trial, why);
            }
        }
        check(bad == 0, "book_select v%u score %d (%s): %d random histograms vs glide_book_select, %d wrong",
              d->version, score, score ? "cross entropy" : "size", cases, bad);
    }
    /* ties: a dictionary whose books repeat; the first minimum must win */
    {
        std::vector<glide_book> books;
        const unsigned ids[] = {40, 7, 40, 7, 70, 7, 40};
        for (unsigned id : ids) books.push_back(d->books[id]);
        glide_dictionary td = {d->version, (unsigned)books.size(), books.data(), 0};
        dev_dict tdd = upload_dict(&td, 1);
        for (int score = 0; score < n_scores; score++) {
            int bad = 0;
            for (int trial = 0; trial < 50; trial++) {
                std::fill(hist.begin(), hist.end(), 0);
                for (int k = 0; k < 1 + trial * 20; k++) hist[GLIDE_SYM_ZERO - 30 + rbelow(61)] += 1 + rbelow(50);
                if (trial % 3 == 2)
                    for (int i = 0; i < GLIDE_NSYM; i++) hist[i] += rbelow(3); /* many symbols: the dense path */
                if (!select_compare(&td, tdd, hist.data(), d_hist, d_out, score, why, sizeof why)) {
                    if (bad++ < 5) printf("     ties score %d trial %d: %s\n", score, trial, why);
                }
            }
            check(bad == 0, "book_select v%u score %d: ties between repeated books go to the first", d->version, score);
        }
        /* one book */
        glide_dictionary od = {d->version, 1, books.data(), 0};
        dev_dict odd = upload_dict(&od);
        for (int i = 0; i < GLIDE_NSYM; i++) hist[i] = rbelow(10);
        for (int score = 0; score < n_scores; score++) {
            const int ok = select_compare(&od, odd, hist.data(), d_hist, d_out, score, why, sizeof why);
            check(ok, "book_select v%u score %d with a one-book dictionary: %s", d->version, score, why);
        }
        uint32_t ticket = 1;
        CK(cudaMemcpy(&ticket, &sel_work()->ticket[0], 4, cudaMemcpyDeviceToHost));
        check(ticket == 0, "book_select: the blocks' counter is back to zero after every call");
        CK(cudaFree(tdd.len));
        CK(cudaFree(tdd.log2q));
        CK(cudaFree(odd.len));
        CK(cudaFree(odd.log2q));
    }
    }
    if (g_timing && d->version == GLIDE_DICT_VERSION) {
        warm_gpu();
        const char *what[] = {"sparse (60 symbols)", "dense (1025 symbols)"};
        for (int dense = 0; dense < 2; dense++) {
            std::fill(hist.begin(), hist.end(), 0);
            for (int i = 0; i < GLIDE_NSYM; i++)
                if (dense || (i > 480 && i < 541)) hist[i] = 1 + rbelow(100000);
            CK(cudaMemcpy(d_hist, hist.data(), GLIDE_NSYM * 8, cudaMemcpyHostToDevice));
            for (int score = 0; score < n_scores; score++) {
                const double us = time_us([&] { CK(gg_book_select(d_hist, dd.g, score, d_out, sel_work(), 0)); }, 100);
                printf("time book_select score %d, %s, %u books: %.2f us per call (back to back)\n", score,
                       what[dense], d->n_books, us);
            }
        }
    }
    CK(cudaFree(d_out));
    CK(cudaFree(d_hist));
    CK(cudaFree(dd.len));
    CK(cudaFree(dd.log2q));
    CK(cudaFree(dd3.len));
    CK(cudaFree(dd3.log2q));
}

/* ---- Huffman ---- */
struct gpu_enc_result {
    uint64_t bytes;
    std::vector<uint8_t> segtab, stream;
    bool guard_ok;
};

/* Encodes on the device; `sym_off` and `out_off` misalign the input and
 * the outputs on purpose. Bytes from cap on are a guard that must survive. */
static gpu_enc_result gpu_encode(const std::vector<uint16_t> &sym, const glide_huff_enc &enc, uint64_t cap,
                                 unsigned sym_off, unsigned out_off)
{
    const uint64_t n = sym.size(), n_seg = glide_segment_count(n);
    const size_t guard = 256;
    uint16_t *d_sym = dalloc<uint16_t>(n + sym_off);
    CK(cudaMemcpy(d_sym + sym_off, sym.data(), n * 2, cudaMemcpyHostToDevice));
    glide_huff_enc *d_enc = dalloc<glide_huff_enc>(1);
    CK(cudaMemcpy(d_enc, &enc, sizeof enc, cudaMemcpyHostToDevice));
    uint8_t *d_segtab = dalloc<uint8_t>(2 * n_seg + out_off);
    uint8_t *d_stream = dalloc<uint8_t>(cap + guard + out_off);
    CK(cudaMemset(d_stream, 0xA5, cap + guard + out_off));
    uint64_t *d_bytes = dalloc<uint64_t>(1);
    CK(cudaMemset(d_bytes, 0x11, 8));
    const size_t sb = gg_huff_encode_scratch(n);
    void *scr = dscratch(sb);
    CK(gg_huff_encode(d_sym + sym_off, n, d_enc, d_segtab + out_off, d_stream + out_off, cap, d_bytes, scr, sb, 0));
    CK(cudaDeviceSynchronize());
    gpu_enc_result r;
    CK(cudaMemcpy(&r.bytes, d_bytes, 8, cudaMemcpyDeviceToHost));
    r.segtab.resize(2 * n_seg);
    CK(cudaMemcpy(r.segtab.data(), d_segtab + out_off, 2 * n_seg, cudaMemcpyDeviceToHost));
    std::vector<uint8_t> all(cap + guard + out_off);
    CK(cudaMemcpy(all.data(), d_stream, all.size(), cudaMemcpyDeviceToHost));
    r.guard_ok = true;
    for (size_t i = 0; i < out_off; i++) r.guard_ok &= all[i] == 0xA5;
    for (size_t i = out_off + cap; i < all.size(); i++) r.guard_ok &= all[i] == 0xA5;
    const uint64_t keep = r.bytes <= cap ? r.bytes : 0;
    r.stream.assign(all.begin() + out_off, all.begin() + out_off + keep);
    CK(cudaFree(scr));
    CK(cudaFree(d_bytes));
    CK(cudaFree(d_stream));
    CK(cudaFree(d_segtab));
    CK(cudaFree(d_enc));
    CK(cudaFree(d_sym));
    return r;
}

/* Decodes on the device from buffers of exactly the sizes given. */
static unsigned gpu_decode(const glide_huff_dec &dec, const uint8_t *segtab, uint32_t n_segments,
                           const uint8_t *stream, uint64_t stream_bytes, uint64_t n, std::vector<uint16_t> &out,
                           unsigned out_off, unsigned in_off)
{
    glide_huff_dec *d_dec = dalloc<glide_huff_dec>(1);
    CK(cudaMemcpy(d_dec, &dec, sizeof dec, cudaMemcpyHostToDevice));
    uint8_t *d_segtab = dalloc<uint8_t>(2 * (size_t)n_segments + in_off);
    CK(cudaMemcpy(d_segtab + in_off, segtab, 2 * (size_t)n_segments, cudaMemcpyHostToDevice));
    uint8_t *d_stream = dalloc<uint8_t>(stream_bytes + in_off);
    CK(cudaMemcpy(d_stream + in_off, stream, stream_bytes, cudaMemcpyHostToDevice));
    uint16_t *d_sym = dalloc<uint16_t>(n + out_off);
    CK(cudaMemset(d_sym, 0xFF, (n + out_off) * 2));
    unsigned *d_err = dalloc<unsigned>(1);
    CK(cudaMemset(d_err, 0, sizeof(unsigned)));
    const size_t sb = gg_huff_decode_scratch(n);
    void *scr = dscratch(sb);
    CK(gg_huff_decode(d_dec, d_segtab + in_off, n_segments, d_stream + in_off, stream_bytes, d_sym + out_off, n, d_err,
                      scr, sb, 0));
    CK(cudaDeviceSynchronize());
    unsigned err;
    CK(cudaMemcpy(&err, d_err, sizeof err, cudaMemcpyDeviceToHost));
    out.resize(n);
    CK(cudaMemcpy(out.data(), d_sym + out_off, n * 2, cudaMemcpyDeviceToHost));
    CK(cudaFree(scr));
    CK(cudaFree(d_err));
    CK(cudaFree(d_sym));
    CK(cudaFree(d_stream));
    CK(cudaFree(d_segtab));
    CK(cudaFree(d_dec));
    return err;
}

/* Compares CPU and GPU decoding of a possibly corrupted stream: an error on
 * one side iff on the other, and equal symbols when both succeed. */
static bool decode_agrees(const glide_huff_dec &dec, const std::vector<uint8_t> &segtab, uint32_t n_segments,
                          const std::vector<uint8_t> &stream, uint64_t stream_bytes, uint64_t n, int *cpu_err_out)
{
    std::vector<uint16_t> c(n ? n : 1), g;
    const size_t rc = glide_huff_decode(&dec, segtab.data(), n_segments, stream.data(), stream_bytes, c.data(), n);
    const int cpu_err = rc != 0;
    const unsigned gerr = gpu_decode(dec, segtab.data(), n_segments, stream.data(), stream_bytes, n, g, 0, 1);
    if (cpu_err_out) *cpu_err_out = cpu_err;
    if (cpu_err != (gerr != 0)) return false;
    if (!cpu_err)
        for (uint64_t i = 0; i < n; i++)
            if (c[i] != g[i]) return false;
    return true;
}

static void corrupt_tests(const glide_huff_dec &dec, const std::vector<uint8_t> &segtab,
                          const std::vector<uint8_t> &stream, uint64_t n, const char *name, int trials)
{
    const uint32_t n_seg = (uint32_t)glide_segment_count(n);
    const uint64_t sb = stream.size();
    int bad = 0, errs = 0, cases = 0;
    for (int t = 0; t < trials; t++) {
        std::vector<uint8_t> st = segtab, s = stream;
        uint64_t bytes = sb;
        uint32_t ns = n_seg;
        const int kind = t % 10;
        if (kind <= 2 && sb) { /* byte flips */
            const int flips = 1 + (int)rbelow(kind == 2 ? 20 : 2);
            for (int f = 0; f < flips; f++) s[rbelow(sb)] ^= (uint8_t)(1u << rbelow(8));
        } else if (kind == 3 && sb) { /* a random byte replaced */
            s[rbelow(sb)] = (uint8_t)rnd();
        } else if (kind == 4) { /* a segment entry off by a little */
            const uint32_t k = (uint32_t)rbelow(n_seg);
            unsigned v = st[2 * k] | st[2 * k + 1] << 8;
            v = (unsigned)((int)v + (int)rbelow(5) - 2) & 0xFFFFu;
            st[2 * k] = (uint8_t)v;
            st[2 * k + 1] = (uint8_t)(v >> 8);
        } else if (kind == 5) { /* oversize or absurd entry */
            const uint32_t k = (uint32_t)rbelow(n_seg);
            const unsigned vals[] = {2049, 4096, 65535, 2048, 0};
            const unsigned v = vals[rbelow(5)];
            st[2 * k] = (uint8_t)v;
            st[2 * k + 1] = (uint8_t)(v >> 8);
        } else if (kind == 6 && n_seg > 1) { /* two entries moved, same total */
            const uint32_t k = (uint32_t)rbelow(n_seg - 1);
            unsigned a = st[2 * k] | st[2 * k + 1] << 8, b = st[2 * k + 2] | st[2 * k + 3] << 8;
            const unsigned d = 1 + (unsigned)rbelow(3);
            if (a >= d) { a -= d; b += d; }
            st[2 * k] = (uint8_t)a; st[2 * k + 1] = (uint8_t)(a >> 8);
            st[2 * k + 2] = (uint8_t)b; st[2 * k + 3] = (uint8_t)(b >> 8);
        } else if (kind == 7) { /* stream shorter or longer than the entries */
            if (rnd() & 1) {
                if (bytes) bytes -= 1 + rbelow(bytes < 8 ? bytes : 8);
            } else {
                const uint64_t extra = 1 + rbelow(8);
                s.resize(sb + extra, 0);
                bytes += extra;
            }
        } else if (kind == 8) { /* wrong segment count */
            ns = (rnd() & 1) ? n_seg + 1 : n_seg - 1;
            st.resize(2 * (size_t)(ns ? ns : 1), 0);
        } else { /* last byte's padding bits set, or a byte appended to a segment */
            if (sb) s[sb - 1] |= 1;
        }
        int cerr = 0;
        cases++;
        if (!decode_agrees(dec, st, ns, s, bytes, n, &cerr)) {
            if (bad++ < 5) printf("     corrupt %s trial %d kind %d: cpu %s, gpu disagrees\n", name, t, kind,
                                  cerr ? "error" : "ok");
        }
        errs += cerr;
    }
    check(bad == 0, "decode %s: %d corrupted streams (%d rejected by the CPU), GPU agrees on all: %d disagree", name,
          cases, errs, bad);
}

static void huff_case(const std::vector<uint16_t> &sym, const uint8_t *len, const char *name, int corrupt_trials)
{
    const uint64_t n = sym.size(), n_seg = glide_segment_count(n);
    glide_huff_enc enc;
    glide_huff_enc_init(&enc, len);
    glide_huff_dec dec;
    if (glide_huff_dec_init(&dec, len) != 0) {
        check(false, "%s: book lengths rejected by glide_huff_dec_init", name);
        return;
    }
    std::vector<uint8_t> segtab(2 * n_seg + 1), stream(2 * n + 16);
    const size_t sz = glide_huff_encode(&enc, sym.data(), n, segtab.data(), stream.data(), stream.size());
    segtab.resize(2 * n_seg);
    stream.resize(sz);

    const unsigned sym_off = (unsigned)(rnd() & 1), out_off = (unsigned)rbelow(4);
    gpu_enc_result g = gpu_encode(sym, enc, sz + 100, sym_off, out_off);
    check(g.bytes == sz && g.segtab == segtab && g.stream == stream && g.guard_ok,
          "encode %s n=%llu (input +%u, outputs +%u): %llu bytes gpu, %zu cpu, segtab %s, stream %s", name,
          (unsigned long long)n, sym_off, out_off, (unsigned long long)g.bytes, sz,
          g.segtab == segtab ? "equal" : "DIFFERENT", g.stream == stream ? "equal" : "DIFFERENT");
    g = gpu_encode(sym, enc, sz, 0, 0);
    check(g.bytes == sz && g.stream == stream && g.guard_ok, "encode %s n=%llu with cap == size", name,
          (unsigned long long)n);
    if (sz) {
        g = gpu_encode(sym, enc, sz - 1, 0, 1);
        check(g.bytes == UINT64_MAX && g.guard_ok, "encode %s n=%llu with cap = size - 1: overflow reported, nothing past cap",
              name, (unsigned long long)n);
        g = gpu_encode(sym, enc, sz / 3, 0, 0);
        check(g.bytes == UINT64_MAX && g.guard_ok, "encode %s n=%llu with cap = size / 3: overflow reported", name,
              (unsigned long long)n);
    }

    std::vector<uint16_t> out;
    const unsigned o_off = (unsigned)rbelow(4), i_off = (unsigned)rbelow(4);
    const unsigned err = gpu_decode(dec, segtab.data(), (uint32_t)n_seg, stream.data(), sz, n, out, o_off, i_off);
    check(err == 0 && out == sym, "decode %s n=%llu (output +%u, inputs +%u): err %u, symbols %s", name,
          (unsigned long long)n, o_off, i_off, err, out == sym ? "equal" : "DIFFERENT");
    if (corrupt_trials) corrupt_tests(dec, segtab, stream, n, name, corrupt_trials);
}

/* Device buffers for timing or profiling a Huffman round trip of sym with
 * its best dictionary book: the symbols, both tables, a stream of cap bytes
 * and scratch for either direction. */
struct dev_huff {
    uint64_t n, n_seg, cap;
    uint16_t *sym;
    glide_huff_enc *enc;
    glide_huff_dec *dec;
    uint8_t *segtab, *stream;
    uint64_t *bytes;
    unsigned *err;
    size_t se, sd;
    void *scr;
};

static dev_huff dev_huff_setup(const glide_dictionary *d, const std::vector<uint16_t> &sym, uint64_t cap)
{
    dev_huff h;
    h.n = sym.size();
    h.n_seg = glide_segment_count(h.n);
    h.cap = cap;
    std::vector<uint64_t> hist(GLIDE_NSYM);
    histogram(sym, hist.data());
    uint64_t bits;
    const unsigned book = glide_book_select(d, hist.data(), GLIDE_SCORE_SIZE, &bits);
    glide_huff_enc enc;
    glide_huff_enc_init(&enc, d->books[book].len);
    glide_huff_dec dec;
    glide_huff_dec_init(&dec, d->books[book].len);
    h.sym = dalloc<uint16_t>(h.n);
    CK(cudaMemcpy(h.sym, sym.data(), h.n * 2, cudaMemcpyHostToDevice));
    h.enc = dalloc<glide_huff_enc>(1);
    CK(cudaMemcpy(h.enc, &enc, sizeof enc, cudaMemcpyHostToDevice));
    h.dec = dalloc<glide_huff_dec>(1);
    CK(cudaMemcpy(h.dec, &dec, sizeof dec, cudaMemcpyHostToDevice));
    h.segtab = dalloc<uint8_t>(2 * h.n_seg);
    h.stream = dalloc<uint8_t>(cap);
    h.bytes = dalloc<uint64_t>(1);
    h.err = dalloc<unsigned>(1);
    CK(cudaMemset(h.err, 0, 4));
    h.se = gg_huff_encode_scratch(h.n);
    h.sd = gg_huff_decode_scratch(h.n);
    h.scr = dscratch(h.se > h.sd ? h.se : h.sd);
    return h;
}

static void dev_huff_free(dev_huff &h)
{
    CK(cudaFree(h.scr));
    CK(cudaFree(h.err));
    CK(cudaFree(h.bytes));
    CK(cudaFree(h.stream));
    CK(cudaFree(h.segtab));
    CK(cudaFree(h.dec));
    CK(cudaFree(h.enc));
    CK(cudaFree(h.sym));
}

static void test_huffman(void)
{
    const glide_dictionary *d = glide_dict_get(GLIDE_DICT_VERSION);
    /* 2048 segments and fewer take the fused offset path, more the CUB scan */
    std::vector<uint64_t> sizes = {1, 2, 1023, 1024, 1025, 4096 * 3 + 7, 100000, 2048 * 1024, 2049 * 1024 + 5};
    if (!g_quick) sizes.push_back((uint64_t)1 << 24);
    std::vector<uint64_t> hist(GLIDE_NSYM);
    char name[160];
    if (g_checks_on) {
    for (uint64_t n : sizes) {
        for (int dist = 0; dist < DIST_COUNT; dist++) {
            if (n > 1000000 && dist != DIST_LAPLACE && dist != DIST_UNIFORM) continue;
            const std::vector<uint16_t> sym = make_symbols(dist, n);
            histogram(sym, hist.data());
            const int trials = n > 1000000 ? 10 : (n > 20000 ? 30 : 60);
            /* dictionary: the chosen book, and a deliberately poor one */
            uint64_t bits;
            const unsigned book = glide_book_select(d, hist.data(), GLIDE_SCORE_SIZE, &bits);
            snprintf(name, sizeof name, "%s/dict book %u", dist_name[dist], book);
            huff_case(sym, d->books[book].len, name, trials);
            const unsigned other = (unsigned)rbelow(d->n_books);
            snprintf(name, sizeof name, "%s/dict book %u", dist_name[dist], other);
            huff_case(sym, d->books[other].len, name, 0);
            /* custom book of this histogram (absent symbols have length 0) */
            uint8_t len[GLIDE_NSYM];
            if (glide_huff_lengths(hist.data(), GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len) == 0) {
                snprintf(name, sizeof name, "%s/custom", dist_name[dist]);
                huff_case(sym, len, name, trials);
            } else {
                check(false, "glide_huff_lengths failed for %s n=%llu", dist_name[dist], (unsigned long long)n);
            }
        }
    }
    /* a 16-bit-heavy book: the lowest-entropy dictionary book with uniform symbols */
    {
        const std::vector<uint16_t> sym = make_symbols(DIST_UNIFORM, 5000);
        huff_case(sym, d->books[0].len, "uniform/dict book 0 (long codes)", 60);
    }
    /* an incomplete three-symbol code: '0', '100', '101'; '11' starts no
     * codeword, so corrupted streams meet unknown codes anywhere */
    {
        uint8_t len[GLIDE_NSYM] = {0};
        len[GLIDE_SYM_ZERO] = 1;
        len[GLIDE_SYM_ZERO - 1] = 3;
        len[GLIDE_SYM_ZERO + 1] = 3;
        for (uint64_t n : {(uint64_t)1, (uint64_t)77, (uint64_t)1024, (uint64_t)5000, (uint64_t)70001}) {
            std::vector<uint16_t> sym(n);
            for (auto &v : sym) v = (uint16_t)(GLIDE_SYM_ZERO - 1 + (rbelow(4) ? 1 : rbelow(3)));
            snprintf(name, sizeof name, "incomplete 3-symbol book");
            huff_case(sym, len, name, n > 20000 ? 40 : 150);
        }
    }
    /* garbage streams of plausible size under a custom incomplete book */
    {
        std::vector<uint16_t> sym(3000, GLIDE_SYM_ZERO);
        histogram(sym, hist.data());
        uint8_t len[GLIDE_NSYM];
        glide_huff_lengths(hist.data(), GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len);
        glide_huff_dec dec;
        glide_huff_dec_init(&dec, len);
        int bad = 0, errs = 0;
        for (int t = 0; t < 60; t++) {
            const uint32_t ns = 3;
            std::vector<uint8_t> st(6), s;
            uint64_t total = 0;
            for (uint32_t k = 0; k < ns; k++) {
                const unsigned v = t % 3 == 0 ? 128 : (unsigned)rbelow(200);
                st[2 * k] = (uint8_t)v;
                st[2 * k + 1] = (uint8_t)(v >> 8);
                total += v;
            }
            s.resize(total);
            for (auto &b : s) b = (t & 1) ? 0 : (uint8_t)rnd();
            int cerr;
            if (!decode_agrees(dec, st, ns, s, total, 3000, &cerr)) bad++;
            errs += cerr;
        }
        check(bad == 0, "decode of random bytes under a one-symbol book: %d disagree (%d CPU errors of 60)", bad, errs);
    }
    /* n = 0 */
    {
        glide_huff_enc enc;
        glide_huff_enc_init(&enc, d->books[10].len);
        std::vector<uint16_t> none;
        gpu_enc_result g = gpu_encode(none, enc, 0, 0, 0);
        check(g.bytes == 0 && g.guard_ok, "encode n=0: 0 bytes");
        glide_huff_dec dec;
        glide_huff_dec_init(&dec, d->books[10].len);
        std::vector<uint8_t> st(2, 0), s(4, 0);
        check(decode_agrees(dec, st, 0, s, 0, 0, nullptr), "decode n=0, no segments, no bytes");
        check(decode_agrees(dec, st, 0, s, 1, 0, nullptr), "decode n=0 with a stream byte: error on both");
        check(decode_agrees(dec, st, 1, s, 0, 0, nullptr), "decode n=0 with one segment: error on both");
    }
    }
    if (g_timing) {
        warm_gpu();
        for (uint64_t n : {(uint64_t)1 << 18, (uint64_t)1 << 22, (uint64_t)1 << 24}) {
            if (g_quick && n > ((uint64_t)1 << 18)) continue;
            const std::vector<uint16_t> sym = make_symbols(DIST_LAPLACE, n);
            dev_huff h = dev_huff_setup(d, sym, 2 * n + 16);
            double us = time_us([&] { CK(gg_huff_encode(h.sym, n, h.enc, h.segtab, h.stream, h.cap, h.bytes, h.scr, h.se, 0)); }, 10);
            uint64_t sb;
            CK(cudaMemcpy(&sb, h.bytes, 8, cudaMemcpyDeviceToHost));
            printf("time encode %llu symbols (%.2f bits/sym): %.1f us (%.2f Gsym/s)\n", (unsigned long long)n,
                   8.0 * sb / n, us, n / (1e3 * us));
            uint16_t *d_out = dalloc<uint16_t>(n);
            us = time_us([&] { CK(gg_huff_decode(h.dec, h.segtab, (uint32_t)h.n_seg, h.stream, sb, d_out, n, h.err, h.scr, h.sd, 0)); }, 10);
            unsigned err;
            CK(cudaMemcpy(&err, h.err, 4, cudaMemcpyDeviceToHost));
            std::vector<uint16_t> back(n);
            CK(cudaMemcpy(back.data(), d_out, n * 2, cudaMemcpyDeviceToHost));
            printf("time decode %llu symbols: %.1f us (%.2f Gsym/s)%s\n", (unsigned long long)n, us, n / (1e3 * us),
                   err || back != sym ? " WRONG RESULT" : "");
            CK(cudaFree(d_out));
            dev_huff_free(h);
        }
    }
}

/* -P: one call of each kind, for a profiler to look at. */
static void profile_once(void)
{
    const size_t nb = (size_t)1 << 20;
    std::vector<uint8_t> h(nb);
    for (auto &x : h) x = (uint8_t)rnd();
    uint8_t *d = dalloc<uint8_t>(nb);
    CK(cudaMemcpy(d, h.data(), nb, cudaMemcpyHostToDevice));
    uint32_t *d_crc = dalloc<uint32_t>(1), *tk = dticket();
    const size_t sb = gg_crc32_scratch(nb);
    void *scr = dscratch(sb);
    CK(gg_crc32(d, 4096, d_crc, tk, scr, sb, 0));
    CK(gg_crc32(d, nb, d_crc, tk, scr, sb, 0));
    CK(cudaDeviceSynchronize());

    const glide_dictionary *dict = glide_dict_get(GLIDE_DICT_VERSION);
    dev_dict dd = upload_dict(dict), d1 = upload_dict(glide_dict_get(1)); /* CE needs v1's log2q */
    uint64_t *d_hist = dalloc<uint64_t>(GLIDE_NSYM);
    gg_select *d_sel = dalloc<gg_select>(1);
    std::vector<uint64_t> hist(GLIDE_NSYM);
    for (auto &x : hist) x = 1 + rbelow(100000);
    CK(cudaMemcpy(d_hist, hist.data(), GLIDE_NSYM * 8, cudaMemcpyHostToDevice));
    CK(gg_book_select(d_hist, dd.g, 0, d_sel, sel_work(), 0));
    CK(gg_book_select(d_hist, d1.g, 1, d_sel, sel_work(), 0));

    const uint64_t n = (uint64_t)1 << 18;
    dev_huff dh = dev_huff_setup(dict, make_symbols(DIST_LAPLACE, n), 2 * n);
    CK(gg_huff_encode(dh.sym, n, dh.enc, dh.segtab, dh.stream, dh.cap, dh.bytes, dh.scr, dh.se, 0));
    uint64_t sbytes;
    CK(cudaMemcpy(&sbytes, dh.bytes, 8, cudaMemcpyDeviceToHost));
    CK(gg_huff_decode(dh.dec, dh.segtab, (uint32_t)dh.n_seg, dh.stream, sbytes, dh.sym, n, dh.err, dh.scr, dh.sd, 0));
    CK(cudaDeviceSynchronize());
    printf("profile calls done\n");
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-q")) g_quick = true;
        else if (!strcmp(argv[i], "-t")) g_timing = true;
        else if (!strcmp(argv[i], "-T")) g_timing = true, g_checks_on = false;
        else if (!strcmp(argv[i], "-P")) g_profile = true;
    }
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("test_gpu_huff: no CUDA device, skipped\n");
        return 77;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
    if (g_profile) {
        profile_once();
        return 0;
    }
    test_crc();
    test_select(glide_dict_get(1), 2);
    test_select(glide_dict_get(2), 1);
    test_huffman();
    test_planes(glide_dict_get(1), 2);
    test_planes(glide_dict_get(GLIDE_DICT_VERSION), 1);
    test_planes_order();
    test_planes_in_place(glide_dict_get(GLIDE_DICT_VERSION));
    if (g_checks_on) {
        test_runs_split(glide_dict_get(GLIDE_DICT_VERSION));
        test_runs_in_place(glide_dict_get(GLIDE_DICT_VERSION));
    }
    test_runs_decode(glide_dict_get(GLIDE_DICT_VERSION));
    CK(cudaDeviceSynchronize());
    printf("test_gpu_huff: %d checks, %d failures\n", g_checks, g_fails);
    return g_fails ? 1 : 0;
}