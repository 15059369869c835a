/* Format 8's run-coded planes on the device against the CPU (the rest of
 * the entropy stage: test_gpu_huff.cu, which runs these from its main):
 * gg_run_stats must count what glide_run_stats_count counts, and
 * gg_runs_encode_placed must give the table and stream that
 * glide_runs_encode (a run-coded plane) and glide_huff_encode (a plain
 * one) give, plane 0's then plane 1's, read from each plane's array or in
 * place from the raster order. */
#include "test_gpu_huff.h"

/* Symbols with runs of ZERO and FILL, of lengths from 1 to past a segment
 * (GLIDE_RUN_SEG_SYMS), among others near ZERO (which may merge with a
 * zero run: runs must come out maximal). mode 0: long and short zero
 * runs; 1: zero and FILL runs side by side; 2: lone zeros in noise; 3: one
 * zero run over every segment boundary; 4: FILL and zero runs only, up to
 * two segments long; 5: no run-coded symbol at all. */
static std::vector<uint16_t> run_symbols(int mode, uint64_t n)
{
    std::vector<uint16_t> s(n);
    uint64_t i = 0;
    while (i < n) {
        const uint16_t other = (uint16_t)(GLIDE_SYM_ZERO - 10 + rbelow(21));
        uint16_t v = other;
        uint64_t L = 1;
        switch (mode) {
        case 0:
            if (rbelow(4)) v = GLIDE_SYM_ZERO, L = 1 + (rbelow(3) ? rbelow(40) : rbelow(9000));
            else L = 1 + rbelow(5);
            break;
        case 1: {
            const unsigned r = (unsigned)rbelow(3);
            v = r == 0 ? GLIDE_SYM_ZERO : r == 1 ? GLIDE_SYM_FILL : other;
            L = 1 + rbelow(r < 2 ? 700 : 3);
            break;
        }
        case 2: v = rbelow(3) ? other : GLIDE_SYM_ZERO; break;
        case 3: v = GLIDE_SYM_ZERO, L = n; break;
        case 4: v = rbelow(2) ? GLIDE_SYM_ZERO : GLIDE_SYM_FILL, L = 1 + rbelow(2 * GLIDE_RUN_SEG_SYMS); break;
        default: v = (uint16_t)(other == GLIDE_SYM_ZERO ? GLIDE_SYM_ZERO + 1 : other); break;
        }
        for (uint64_t k = 0; k < L && i < n; k++) s[i++] = v;
    }
    return s;
}

static bool stats_equal(const glide_run_stats &a, const glide_run_stats &b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The device's statistics of both planes (in place: d_sym0 the raster order) */
static void gpu_stats(const uint16_t *d_sym0, uint64_t n0, const uint16_t *d_sym1, uint64_t n1,
                      const gg_plane_runs *runs, glide_run_stats out[2])
{
    glide_run_stats *d_out = dalloc<glide_run_stats>(2);
    CK(cudaMemset(d_out, 0, 2 * sizeof *d_out));
    CK(gg_run_stats(d_sym0, n0, d_sym1, n1, runs, d_out, gg_pick_gate{}, NULL, 0));
    CK(cudaMemcpy(out, d_out, 2 * sizeof *out, cudaMemcpyDeviceToHost));
    CK(cudaFree(d_out));
}

/* A plane's class code for the kinds in `kinds` (bit k): lengths of its
 * class counts, each plus one so that every class has a codeword */
static void class_code(const glide_run_stats &st, unsigned kinds, glide_run_code *rc)
{
    uint8_t len[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES];
    memset(len, 0, sizeof len);
    for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++) {
        if (!(kinds >> k & 1u)) continue;
        uint64_t cnt[GLIDE_RUN_CLASSES];
        for (unsigned c = 0; c < GLIDE_RUN_CLASSES; c++) cnt[c] = st.cls[k][c] + 1;
        CK(glide_huff_lengths(cnt, GLIDE_RUN_CLASSES, GLIDE_RUN_MAX_LEN, len[k]) == 0 ? cudaSuccess : cudaErrorInvalidValue);
    }
    CK(glide_run_code_init(rc, len) == 0 ? cudaSuccess : cudaErrorInvalidValue);
}

/* The CPU's stream of both planes: plane p run-coded (rc[p]) where bit p
 * of run_planes is set; ctab gets the table, cstream the segments (sized
 * by the caller). Returns the stream's bytes. */
static uint64_t cpu_encode_runs(const glide_huff_enc enc[2], const glide_run_code rc[2], unsigned run_planes,
                                const std::vector<uint16_t> &s0, const std::vector<uint16_t> &s1,
                                std::vector<uint8_t> &ctab, std::vector<uint8_t> &cstream)
{
    const std::vector<uint16_t> *s[2] = {&s0, &s1};
    uint64_t tab = 0, got = 0;
    ctab.assign(2 * (glide_plane_segments(s0.size(), run_planes & 1) + glide_plane_segments(s1.size(), run_planes & 2)) + 1,
                0);
    for (unsigned p = 0; p < 2; p++) {
        const int r = (run_planes >> p) & 1;
        const size_t g = r ? glide_runs_encode(&enc[p], &rc[p], s[p]->data(), s[p]->size(), ctab.data() + 2 * tab,
                                               cstream.data() + got, cstream.size() - got)
                           : glide_huff_encode(&enc[p], s[p]->data(), s[p]->size(), ctab.data() + 2 * tab,
                                               cstream.data() + got, cstream.size() - got);
        CK(g == (size_t)-1 ? cudaErrorInvalidValue : cudaSuccess);
        got += g;
        tab += glide_plane_segments(s[p]->size(), r);
    }
    return got;
}

/* One placed encode on the device into a zeroed buffer laid out as a
 * stream behind a 96-byte header (table at 101, segments after it, room
 * `cap`, 64 guard bytes), with the finish (gg_enc_fin). ok 0: a declined
 * plan. Whether it gives what the CPU gave (total bytes: table, stream,
 * the header's size, crc_len, total), or with cap < total or a declined
 * plan no stream, and in every case nothing written past the table and
 * the stream. from_plan: launched as GG_RUNS_FROM_PLAN, the planes in the
 * plan's place.runs. zeroed: the look-back words zeroed ahead, as the
 * plan's kernel leaves them (words_zeroed); else every scratch byte 0xFF. */
static bool placed_runs(const uint16_t *d_sym0, uint64_t n0, const uint16_t *d_sym1, uint64_t n1,
                        const gg_plane_runs *runs, unsigned run_planes, const glide_huff_enc enc[2],
                        const glide_run_code rc[2], const std::vector<uint8_t> &ctab, const std::vector<uint8_t> &cstream,
                        uint64_t total, uint64_t cap, int ok, bool from_plan, bool zeroed)
{
    const uint64_t n_seg = glide_plane_segments(n0, run_planes & 1) + glide_plane_segments(n1, run_planes & 2);
    const uint64_t tab_off = 101, stream_off = tab_off + 2 * n_seg, size = stream_off + cap + 64;
    glide_huff_enc *d_enc = dalloc<glide_huff_enc>(2);
    glide_run_code *d_rc = dalloc<glide_run_code>(2);
    CK(cudaMemcpy(d_enc, enc, 2 * sizeof *enc, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_rc, rc, 2 * sizeof *rc, cudaMemcpyHostToDevice));
    uint8_t *d_buf = dalloc<uint8_t>(size);
    CK(cudaMemset(d_buf, 0, size));
    gg_place pl = {0, 0, tab_off, stream_off, cap, (uint32_t)ok, 0, run_planes};
    gg_place *d_pl = dalloc<gg_place>(1);
    CK(cudaMemcpy(d_pl, &pl, sizeof pl, cudaMemcpyHostToDevice));
    uint64_t *d_words = dalloc<uint64_t>(3); /* stream bytes, crc_len, total */
    CK(cudaMemset(d_words, 0xEE, 3 * 8));
    const gg_enc_fin fin = {d_words + 1, d_words + 2};
    const size_t se = gg_runs_encode_scratch(n0 + n1);
    void *scr = dscratch(se);
    CK(cudaMemset(scr, 0xFF, se)); /* without zeroed the encoder must need nothing zeroed */
    if (zeroed) CK(cudaMemset(scr, 0, gg_huff_encode_words(n0, n1) * sizeof(uint64_t)));
    CK(gg_runs_encode_placed(d_sym0, n0, d_sym1, n1, runs, from_plan ? GG_RUNS_FROM_PLAN : run_planes, d_enc, d_rc, d_buf,
                             d_pl, d_words, &fin, scr, se, zeroed, 0));
    uint64_t w[3];
    std::vector<uint8_t> g(size);
    CK(cudaMemcpy(w, d_words, sizeof w, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(g.data(), d_buf, size, cudaMemcpyDeviceToHost));
    uint64_t hsize = 0;
    for (int k = 7; k >= 0; k--) hsize = hsize << 8 | g[GLIDE_HDR_STREAM_BYTES + k];
    const bool fits = ok && total <= cap;
    bool same = fits ? w[0] == total && w[1] == stream_off + total && w[2] == stream_off + total + GLIDE_CRC_BYTES &&
                           hsize == total && memcmp(g.data() + tab_off, ctab.data(), 2 * n_seg) == 0 &&
                           memcmp(g.data() + stream_off, cstream.data(), total) == 0
                     : w[0] == UINT64_MAX && w[1] == 0 && w[2] == 0 && hsize == 0;
    /* nothing but the header's size, the table and the stream; where the
     * stream does not fit, segments may have been written within the room */
    for (uint64_t i = 0; i < size && same; i++) {
        const bool mine = (i >= GLIDE_HDR_STREAM_BYTES && i < GLIDE_HDR_STREAM_BYTES + 8) ||
                          (ok && i >= tab_off && i < stream_off) || (fits && i >= stream_off && i < stream_off + total) ||
                          (ok && !fits && i >= stream_off && i < stream_off + cap);
        same = mine || g[i] == 0;
    }
    CK(cudaFree(scr));
    CK(cudaFree(d_words));
    CK(cudaFree(d_pl));
    CK(cudaFree(d_buf));
    CK(cudaFree(d_rc));
    CK(cudaFree(d_enc));
    return same;
}

/* Books for two planes: a dictionary book, or a custom one for the plane's
 * symbols (only those that occur have codewords) */
static void plane_books(const glide_dictionary *d, const std::vector<uint16_t> *s[2], int custom, glide_huff_enc enc[2])
{
    for (unsigned p = 0; p < 2; p++) {
        uint8_t len[GLIDE_NSYM];
        if (custom && !s[p]->empty()) {
            std::vector<uint64_t> h(GLIDE_NSYM, 0);
            for (uint16_t v : *s[p]) h[v]++;
            CK(glide_huff_lengths(h.data(), GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len) == 0 ? cudaSuccess : cudaErrorInvalidValue);
        } else {
            memcpy(len, d->books[rbelow(d->n_books)].len, GLIDE_NSYM);
        }
        glide_huff_enc_init(&enc[p], len);
    }
}

/* Every way of coding one pair of planes: each run-coded set of planes,
 * the run-coded kinds cycling over ZERO, FILL and both, a dictionary or a
 * custom book; the room exactly the stream's, one byte short, and a
 * declined plan; each set named at the launch and taken from the plan
 * (GG_RUNS_FROM_PLAN, which also codes two plain planes as
 * glide_huff_encode does). Returns the cases that went wrong (printing a
 * few). */
static int encode_cases(const glide_dictionary *d, const uint16_t *d_sym0, const uint16_t *d_sym1,
                        const gg_plane_runs *runs, const std::vector<uint16_t> &s0, const std::vector<uint16_t> &s1,
                        const char *what, int *cases)
{
    const std::vector<uint16_t> *s[2] = {&s0, &s1};
    glide_run_stats st[2];
    glide_run_stats_count(s0.data(), s0.size(), &st[0]);
    glide_run_stats_count(s1.data(), s1.size(), &st[1]);
    int bad = 0;
    std::vector<uint8_t> ctab, cstream(3 * (s0.size() + s1.size()) + 64);
    for (unsigned run_planes = 0; run_planes < 4; run_planes++) {
        glide_huff_enc enc[2];
        plane_books(d, s, (int)(run_planes + *cases) % 2, enc);
        glide_run_code rc[2];
        for (unsigned p = 0; p < 2; p++) class_code(st[p], run_planes >> p & 1u ? 1u + (unsigned)((*cases + p) % 3) : 0u, &rc[p]);
        const uint64_t total = cpu_encode_runs(enc, rc, run_planes, s0, s1, ctab, cstream);
        for (int how = 0; how < 3; how++)
            for (int fp = run_planes == 0; fp < 2; fp++) {
                if (how == 1 && !total) continue;
                const uint64_t cap = how == 1 ? total - 1 : total + (how == 2 ? 7 : 0);
                (*cases)++;
                if (!placed_runs(d_sym0, s0.size(), d_sym1, s1.size(), runs, run_planes, enc, rc, ctab, cstream, total,
                                 cap, how != 2, fp != 0, (how + fp) % 2 != 0) &&
                    bad++ < 3)
                    printf("     runs encode %s n0 %zu n1 %zu planes %u%s: %s wrong\n", what, s0.size(), s1.size(),
                           run_planes, fp ? " (from the plan)" : "",
                           how == 0 ? "the stream" : how == 1 ? "the overflow" : "the declined plan");
            }
    }
    return bad;
}

/* Split planes: each plane its own array (plane 1's 16-byte aligned as the
 * codec puts it, or not), sizes across segment boundaries and both
 * segment lengths, and both kernels' widths (8 points a thread up to
 * kWidePoints = 2^19 points, 32 above; -q only the first). */
void test_runs_split(const glide_dictionary *d)
{
    const uint64_t sizes[][2] = {{1, 0},       {1, 1},          {7, 40},        {4096, 4096},     {4097, 1023},
                                 {12293, 5000}, {8192, 1},      {33000, 230000}, {262144, 262144}, {262144, 262145},
                                 {300000, 2100000}, {2100001, 3}};
    int bad_stats = 0, bad_enc = 0, cases = 0, scases = 0;
    for (const auto &sz : sizes) {
        for (int mode = 0; mode < 6; mode++) {
            if (g_quick && (mode > 1 || sz[0] + sz[1] > 300000)) continue; /* -q: under the sanitizers */
            const uint64_t n0 = sz[0], n1 = sz[1], base1 = ((n0 + 7) & ~(uint64_t)7) + (mode == 2 ? 3 : 0);
            const std::vector<uint16_t> s0 = run_symbols(mode, n0), s1 = run_symbols((mode + 1) % 6, n1);
            std::vector<uint16_t> sym(base1 + n1 + 8, 0);
            std::copy(s0.begin(), s0.end(), sym.begin());
            std::copy(s1.begin(), s1.end(), sym.begin() + base1);
            uint16_t *d_sym = dalloc<uint16_t>(sym.size());
            CK(cudaMemcpy(d_sym, sym.data(), sym.size() * 2, cudaMemcpyHostToDevice));
            glide_run_stats cs[2], gs[2];
            glide_run_stats_count(s0.data(), n0, &cs[0]);
            glide_run_stats_count(s1.data(), n1, &cs[1]);
            gpu_stats(d_sym, n0, d_sym + base1, n1, NULL, gs);
            scases++;
            if (!(stats_equal(cs[0], gs[0]) && stats_equal(cs[1], gs[1])) && bad_stats++ < 3)
                printf("     run stats n0 %llu n1 %llu mode %d: plane 0 %s, plane 1 %s\n", (unsigned long long)n0,
                       (unsigned long long)n1, mode, stats_equal(cs[0], gs[0]) ? "ok" : "WRONG",
                       stats_equal(cs[1], gs[1]) ? "ok" : "WRONG");
            /* the encoder on the largest sizes once, on the others for every mode */
            if (n0 + n1 < 1000000 || mode == 0)
                bad_enc += encode_cases(d, d_sym, d_sym + base1, NULL, s0, s1, "split", &cases);
            CK(cudaFree(d_sym));
        }
    }
    check(bad_stats == 0, "run statistics of split planes: %d pairs (runs across segments, FILL beside ZERO, lone zeros, "
          "none) as glide_run_stats_count, %d wrong", scases, bad_stats);
    check(bad_enc == 0, "runs encode of split planes: %d cases (each plane run-coded or not, ZERO, FILL or both, dictionary "
          "or custom books, room exact, short, plan declined; the planes named or from the plan) as glide_runs_encode / "
          "glide_huff_encode, %d wrong",
          cases, bad_enc);
}

/* Planes in place (plane_runs.h): the raster order's planes cut out on the
 * host are the reference; shapes of test_planes_in_place's kind, with
 * planes of several segments. */
void test_runs_in_place(const glide_dictionary *d)
{
    struct shp {
        uint32_t nz, ny, nx, rows;
    };
    const shp shapes[] = {{1, 1, 64, 1},   {3, 5, 128, 3},     {5, 6, 64, 5},      {40, 9, 64, 8},
                          {9, 3, 64, 3},   {6, 4, 64, 2},      {64, 64, 64, 64},   {33, 20, 256, 33},
                          {48, 48, 1024, 48}, {256, 256, 256, 256}};
    int bad_stats = 0, bad_enc = 0, cases = 0, scases = 0;
    for (const shp &sh : shapes) {
        const uint64_t n = (uint64_t)sh.nz * sh.ny * sh.nx;
        if (g_quick && n > 300000) continue;
        gg_plane_runs runs;
        if (!gg_plane_runs_make(sh.nz, sh.ny, sh.nx, sh.rows, &runs)) {
            check(false, "runs in place: %ux%ux%u slab %u takes the runs", sh.nz, sh.ny, sh.nx, sh.rows);
            continue;
        }
        for (int mode = 0; mode < 5; mode++) {
            if (g_quick && mode != 1) continue;
            const std::vector<uint16_t> sym = run_symbols(mode, n);
            std::vector<uint16_t> s0, s1;
            for (uint32_t z = 0; z < sh.nz; z++)
                for (uint32_t y = 0; y < sh.ny; y++)
                    for (uint32_t x = 0; x < sh.nx; x++) {
                        const uint16_t v = sym[((uint64_t)z * sh.ny + y) * sh.nx + x];
                        if (((z % sh.rows) | y | x) & 1u) s1.push_back(v);
                        else s0.push_back(v);
                    }
            uint16_t *d_sym = dalloc<uint16_t>(n);
            CK(cudaMemcpy(d_sym, sym.data(), n * 2, cudaMemcpyHostToDevice));
            glide_run_stats cs[2], gs[2];
            glide_run_stats_count(s0.data(), s0.size(), &cs[0]);
            glide_run_stats_count(s1.data(), s1.size(), &cs[1]);
            gpu_stats(d_sym, s0.size(), NULL, s1.size(), &runs, gs);
            scases++;
            if (!(stats_equal(cs[0], gs[0]) && stats_equal(cs[1], gs[1])) && bad_stats++ < 3)
                printf("     run stats in place %ux%ux%u mode %d: plane 0 %s, plane 1 %s\n", sh.nz, sh.ny, sh.nx, mode,
                       stats_equal(cs[0], gs[0]) ? "ok" : "WRONG", stats_equal(cs[1], gs[1]) ? "ok" : "WRONG");
            if (n < 1000000 || mode == 0) bad_enc += encode_cases(d, d_sym, NULL, &runs, s0, s1, "in place", &cases);
            CK(cudaFree(d_sym));
        }
    }
    check(bad_stats == 0, "run statistics in place: %d grids and symbol mixes as glide_run_stats_count of the planes "
          "cut out, %d wrong", scases, bad_stats);
    check(bad_enc == 0, "runs encode in place: %d cases as glide_runs_encode / glide_huff_encode of the planes cut out, "
          "%d wrong", cases, bad_enc);
}
