/* Format 5's planes on the device against the CPU (the rest of the entropy
 * stage: test_gpu_huff.cu, which runs these from its main). */
#include "test_gpu_huff.h"

/* ---- format 5's planes: both books in one selection launch, both planes
 * in one encode and one decode, against the CPU doing each plane alone ---- */
/* The CPU's coding of format 5's two planes: each plane alone, plane 1's
 * table and stream after plane 0's (ctab: 2 bytes a segment, cstream
 * sized by the caller). Returns both planes' stream bytes. */
static uint64_t cpu_encode_planes(const glide_huff_enc enc[2], const std::vector<uint16_t> &s0,
                                  const std::vector<uint16_t> &s1, std::vector<uint8_t> &ctab,
                                  std::vector<uint8_t> &cstream)
{
    const uint64_t seg0 = glide_segment_count(s0.size());
    ctab.assign(2 * (seg0 + glide_segment_count(s1.size())) + 1, 0);
    const size_t b0 = glide_huff_encode(&enc[0], s0.data(), s0.size(), ctab.data(), cstream.data(), cstream.size());
    const size_t b1 = glide_huff_encode(&enc[1], s1.data(), s1.size(), ctab.data() + 2 * seg0, cstream.data() + b0,
                                        cstream.size() - b0);
    return b0 + b1;
}

/* The encoder's look-back words in scr, zeroed as the codec zeroes them:
 * by gg_apply_plan's spare blocks, here with an emptied plan (it then
 * writes only st->place). Everything else in scr is left dirty. */
static void zero_words_by_apply(void *scr, size_t se, uint64_t n0, uint64_t n1)
{
    const gg_words z = {static_cast<uint64_t *>(scr), gg_huff_encode_words(n0, n1)};
    if (z.n * 8 > se) {
        check(0, "gg_huff_encode_words(%llu, %llu) = %llu words fits the encoder's scratch of %zu bytes",
              (unsigned long long)n0, (unsigned long long)n1, (unsigned long long)z.n, se);
        return;
    }
    gg_apply *h_a = NULL, *d_a = NULL;
    CK(cudaHostAlloc(&h_a, sizeof *h_a, cudaHostAllocMapped));
    memset(h_a, 0, sizeof *h_a);
    h_a->book[0] = h_a->book[1] = GG_APPLY_NONE;
    CK(cudaHostGetDevicePointer(&d_a, h_a, 0));
    gg_state *d_st = dalloc<gg_state>(1);
    glide_huff_enc *d_enc = dalloc<glide_huff_enc>(2);
    glide_run_code *d_rc = dalloc<glide_run_code>(2);
    uint8_t *d_buf = dalloc<uint8_t>(16);
    CK(gg_apply_plan(d_a, d_enc, d_enc, d_rc, d_buf, d_st, z, 0));
    CK(cudaDeviceSynchronize());
    CK(cudaFree(d_buf));
    CK(cudaFree(d_rc));
    CK(cudaFree(d_enc));
    CK(cudaFree(d_st));
    CK(cudaFreeHost(h_a));
}

/* One placed encode of both planes on the device into a zeroed buffer laid
 * out as a stream (table 13 bytes in, segments after it, room
 * cstream.size()); with runs, both planes read in place from d_sym0.
 * Twice, in a scratch of all ones: the encoder zeroing its words, then
 * gg_apply_plan zeroing them ahead (zero_words_by_apply). Whether both
 * sizes, tables and streams are the CPU's (cpu_encode_planes); *gbytes
 * gets the last size. */
static bool placed_matches(const uint16_t *d_sym0, uint64_t n0, const uint16_t *d_sym1, uint64_t n1,
                           const gg_plane_runs *runs, const glide_huff_enc enc[2], const std::vector<uint8_t> &ctab,
                           const std::vector<uint8_t> &cstream, uint64_t total, void *scr, size_t se, uint64_t *gbytes)
{
    const uint64_t n_seg = glide_segment_count(n0) + glide_segment_count(n1);
    const uint64_t tab_off = 13, stream_off = tab_off + 2 * n_seg, cap = cstream.size();
    glide_huff_enc *d_enc = dalloc<glide_huff_enc>(2);
    CK(cudaMemcpy(d_enc, enc, 2 * sizeof *enc, cudaMemcpyHostToDevice));
    uint8_t *d_buf = dalloc<uint8_t>(stream_off + cap);
    gg_place pl = {0, 0, tab_off, stream_off, cap, 1, 0, 0};
    gg_place *d_pl = dalloc<gg_place>(1);
    CK(cudaMemcpy(d_pl, &pl, sizeof pl, cudaMemcpyHostToDevice));
    uint64_t *d_bytes = dalloc<uint64_t>(1);
    bool ok = true;
    std::vector<uint8_t> gbuf(stream_off + cap);
    for (int ahead = 0; ahead < 2; ahead++) {
        CK(cudaMemset(d_buf, 0, stream_off + cap));
        CK(cudaMemset(scr, 0xFF, se));
        if (ahead) zero_words_by_apply(scr, se, n0, n1);
        CK(gg_huff_encode_placed(d_sym0, n0, d_sym1, n1, runs, d_enc, d_buf, d_pl, d_bytes, NULL, scr, se, ahead, 0));
        CK(cudaMemcpy(gbytes, d_bytes, 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(gbuf.data(), d_buf, gbuf.size(), cudaMemcpyDeviceToHost));
        ok = ok && *gbytes == total && memcmp(gbuf.data() + tab_off, ctab.data(), 2 * n_seg) == 0 &&
             memcmp(gbuf.data() + stream_off, cstream.data(), total) == 0;
    }
    CK(cudaFree(d_bytes));
    CK(cudaFree(d_pl));
    CK(cudaFree(d_buf));
    CK(cudaFree(d_enc));
    return ok;
}

void test_planes(const glide_dictionary *d, int n_scores)
{
    if (!g_checks_on) return;
    dev_dict dd = upload_dict(d);
    uint64_t *d_hist = dalloc<uint64_t>(GLIDE_NSYM), *d_hist0 = dalloc<uint64_t>(GLIDE_NSYM);
    uint64_t *d_hist1 = dalloc<uint64_t>(GLIDE_NSYM);
    /* gg_book_select_two: the two planes' histograms apart, an odd stride between */
    const size_t two_stride = GLIDE_NSYM + 3;
    uint64_t *d_two = dalloc<uint64_t>(two_stride + GLIDE_NSYM);
    int bad_two = 0, bad_gate = 0;
    gg_select *d_out = dalloc<gg_select>(2);
    uint32_t *d_words = dalloc<uint32_t>(2); /* the pick's lorenzo and slice words, for the gated launches */
    std::vector<uint64_t> hist(GLIDE_NSYM), hist0(GLIDE_NSYM), hist1(GLIDE_NSYM), got1(GLIDE_NSYM);
    for (int score = 0; score < n_scores; score++) {
        int bad = 0;
        for (int trial = 0; trial < 120; trial++) {
            const double scale = 0.05 + 100 * urand() * urand();
            for (int i = 0; i < GLIDE_NSYM; i++) hist[i] = hist0[i] = 0;
            for (int k = 0; k < 3000; k++) {
                const double u = urand() - 0.5;
                const long q = lround(-scale * (u < 0 ? -1 : 1) * log(1 - 2 * fabs(u) + 1e-300));
                const int v = (q < -511 || q > 511) ? GLIDE_SYM_OUTLIER : (int)(q + GLIDE_SYM_ZERO);
                hist[v] += 1 + rbelow(1u << (trial % 20));
            }
            for (int i = 0; i < GLIDE_NSYM; i++) {
                /* plane 0 takes none, all or a part of each count */
                const int how = trial % 4 == 0 ? 0 : trial % 4 == 1 ? 1 : 2;
                hist0[i] = how == 0 ? 0 : how == 1 ? hist[i] : rbelow(hist[i] + 1);
                hist1[i] = hist[i] - hist0[i];
            }
            uint64_t cb[2];
            const unsigned cbook[2] = {glide_book_select(d, hist0.data(), (glide_score)score, &cb[0]),
                                       glide_book_select(d, hist1.data(), (glide_score)score, &cb[1])};
            CK(cudaMemcpy(d_hist, hist.data(), GLIDE_NSYM * 8, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(d_hist0, hist0.data(), GLIDE_NSYM * 8, cudaMemcpyHostToDevice));
            CK(cudaMemset(d_hist1, 0xEE, GLIDE_NSYM * 8));
            CK(cudaMemset(d_out, 0xEE, 2 * sizeof(gg_select)));
            CK(gg_book_select_planes(d_hist, d_hist0, d_hist1, dd.g, score, d_out, sel_work(), 0, 0));
            gg_select g[2];
            CK(cudaMemcpy(g, d_out, sizeof g, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(got1.data(), d_hist1, GLIDE_NSYM * 8, cudaMemcpyDeviceToHost));
            const bool ok = g[0].book == cbook[0] && g[0].bits == cb[0] && g[1].book == cbook[1] && g[1].bits == cb[1] &&
                            g[0].pad == 0 && g[1].pad == 0 && got1 == hist1;
            if (!ok && bad++ < 5)
                printf("     planes select score %d trial %d: gpu %u/%u cpu %u/%u\n", score, trial, g[0].book, g[1].book,
                       cbook[0], cbook[1]);
            /* gated: the launch whose gate is shut writes nothing, the open one
             * the same as above (the pick kept interpolation, or chose
             * Lorenzo or a slice order) */
            {
                const uint32_t words[2] = {trial % 3 == 1 ? 1u : 0u, trial % 3 == 2 ? 2u : 0u};
                const int other = trial % 3 != 0;
                const gg_pick_gate open_g = {d_words, d_words + 1, other}, shut_g = {d_words, d_words + 1, !other};
                CK(cudaMemcpy(d_words, words, sizeof words, cudaMemcpyHostToDevice));
                CK(cudaMemset(d_hist1, 0xEE, GLIDE_NSYM * 8));
                CK(cudaMemset(d_out, 0xEE, 2 * sizeof(gg_select)));
                CK(gg_book_select_planes_gated(d_hist, d_hist0, d_hist1, dd.g, score, d_out, sel_work(), shut_g, 0, 0));
                gg_select gs[2], poison[2];
                memset(poison, 0xEE, sizeof poison);
                std::vector<uint64_t> shut1(GLIDE_NSYM);
                CK(cudaMemcpy(gs, d_out, sizeof gs, cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(shut1.data(), d_hist1, GLIDE_NSYM * 8, cudaMemcpyDeviceToHost));
                bool gok = memcmp(gs, poison, sizeof gs) == 0 && shut1 == std::vector<uint64_t>(GLIDE_NSYM, 0xEEEEEEEEEEEEEEEEull);
                CK(gg_book_select_planes_gated(d_hist, d_hist0, d_hist1, dd.g, score, d_out, sel_work(), open_g, 0, 0));
                CK(cudaMemcpy(gs, d_out, sizeof gs, cudaMemcpyDeviceToHost));
                CK(cudaMemcpy(got1.data(), d_hist1, GLIDE_NSYM * 8, cudaMemcpyDeviceToHost));
                gok = gok && gs[0].book == cbook[0] && gs[0].bits == cb[0] && gs[1].book == cbook[1] &&
                      gs[1].bits == cb[1] && gs[0].pad == 0 && gs[1].pad == 0 && got1 == hist1;
                if (!gok && bad_gate++ < 5)
                    printf("     gated planes select score %d trial %d: gpu %u/%u cpu %u/%u\n", score, trial, gs[0].book,
                           gs[1].book, cbook[0], cbook[1]);
            }
            CK(cudaMemcpy(d_two, hist0.data(), GLIDE_NSYM * 8, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(d_two + two_stride, hist1.data(), GLIDE_NSYM * 8, cudaMemcpyHostToDevice));
            CK(cudaMemset(d_out, 0xEE, 2 * sizeof(gg_select)));
            CK(gg_book_select_two(d_two, two_stride, dd.g, score, d_out, sel_work(), 0));
            CK(cudaMemcpy(g, d_out, sizeof g, cudaMemcpyDeviceToHost));
            if (!(g[0].book == cbook[0] && g[0].bits == cb[0] && g[1].book == cbook[1] && g[1].bits == cb[1] &&
                  g[0].pad == 0 && g[1].pad == 0) &&
                bad_two++ < 5)
                printf("     two select score %d trial %d: gpu %u/%u cpu %u/%u\n", score, trial, g[0].book, g[1].book,
                       cbook[0], cbook[1]);
        }
        check(bad == 0, "book_select_planes v%u score %d: both planes' books (and plane 1's histogram) as the CPU's, "
              "120 random splits, %d wrong", d->version, score, bad);
    }
    check(bad_two == 0, "book_select_two v%u: two histograms' books as the CPU's, each score's 120 pairs, %d wrong",
          d->version, bad_two);
    check(bad_gate == 0,
          "book_select_planes_gated v%u: a shut gate writes nothing, an open one the CPU's books, 120 pairs a score, "
          "%d wrong", d->version, bad_gate);
    uint32_t tickets[GLIDE_NPLANES] = {1, 1};
    CK(cudaMemcpy(tickets, sel_work()->ticket, sizeof tickets, cudaMemcpyDeviceToHost));
    check(tickets[0] == 0 && tickets[1] == 0, "book_select_planes: both planes' counters are back to zero");

    /* encode and decode: plane 1 starts where the codec puts it (plane 0
     * rounded up to 8 symbols); sizes cross both encoders' and the
     * decoder's fused and scanned paths */
    const uint64_t sizes[][2] = {{1, 0}, {1, 1}, {7, 40}, {1024, 1024}, {1500, 9000}, {33000, 230000},
                                 {300000, 2100000}, {2100001, 3}, {5, 2200000}};
    for (const auto &sz : sizes) {
        if (g_quick && sz[0] + sz[1] > 2400000) continue; /* -q (under the sanitizers): one scanned case */
        const uint64_t n0 = sz[0], n1 = sz[1], base1 = (n0 + 7) & ~(uint64_t)7;
        const unsigned ids[2] = {(unsigned)rbelow(d->n_books), (unsigned)rbelow(d->n_books)};
        glide_huff_enc enc[2];
        glide_huff_dec dec[2];
        for (int k = 0; k < 2; k++) {
            glide_huff_enc_init(&enc[k], d->books[ids[k]].len);
            CK(glide_huff_dec_init(&dec[k], d->books[ids[k]].len) == 0 ? cudaSuccess : cudaErrorInvalidValue);
        }
        std::vector<uint16_t> sym(base1 + n1);
        const std::vector<uint16_t> s0 = make_symbols(DIST_LAPLACE, n0), s1 = make_symbols(DIST_WIDE, n1);
        std::copy(s0.begin(), s0.end(), sym.begin());
        std::copy(s1.begin(), s1.end(), sym.begin() + base1);
        const uint64_t seg0 = glide_segment_count(n0), seg1 = glide_segment_count(n1), n_seg = seg0 + seg1;
        std::vector<uint8_t> ctab, cstream(2 * (n0 + n1) + 64);
        const uint64_t total = cpu_encode_planes(enc, s0, s1, ctab, cstream);
        /* the GPU: one placed encode into a buffer laid out as a stream */
        uint16_t *d_sym = dalloc<uint16_t>(sym.size() + 8);
        CK(cudaMemcpy(d_sym, sym.data(), sym.size() * 2, cudaMemcpyHostToDevice));
        const size_t se = gg_huff_encode_scratch(n0 + n1), sd = gg_huff_decode_scratch(n0 + n1);
        void *scr = dscratch(se > sd ? se : sd);
        uint64_t gbytes = 0;
        const bool enc_ok = placed_matches(d_sym, n0, d_sym + base1, n1, NULL, enc, ctab, cstream, total, scr, se, &gbytes);
        check(enc_ok, "huffman planes encode n0 %llu n1 %llu: one launch set gives the CPU's two planes' table and "
              "stream (%llu vs %llu bytes)", (unsigned long long)n0, (unsigned long long)n1,
              (unsigned long long)gbytes, (unsigned long long)total);
        /* decode it back, then with a corrupted byte (an error iff the CPU errs on either plane) */
        unsigned *d_err = dalloc<unsigned>(1);
        uint16_t *d_out = dalloc<uint16_t>(sym.size() + 8);
        for (int corrupt = 0; corrupt < 4; corrupt++) {
            std::vector<uint8_t> tab(ctab.begin(), ctab.begin() + 2 * n_seg), st(cstream.begin(), cstream.begin() + total);
            if (corrupt == 1 && total) st[rbelow(total)] ^= (uint8_t)(1 + rbelow(255));
            if (corrupt == 2) tab[2 * rbelow(n_seg)] ^= (uint8_t)(1 + rbelow(255));
            if (corrupt == 3 && seg1) { /* a byte moved from plane 0's entries to plane 1's: the total still holds */
                tab[0] = (uint8_t)(tab[0] - 1);
                tab[2 * seg0] = (uint8_t)(tab[2 * seg0] + 1);
            }
            uint64_t cb0 = 0;
            for (uint64_t k = 0; k < seg0; k++) cb0 += tab[2 * k] | (uint64_t)tab[2 * k + 1] << 8;
            std::vector<uint16_t> c0(n0 ? n0 : 1), c1(n1 ? n1 : 1);
            bool cpu_err = cb0 > total || (n1 == 0 && cb0 != total);
            if (!cpu_err)
                cpu_err = glide_huff_decode(&dec[0], tab.data(), (uint32_t)seg0, st.data(), cb0, c0.data(), n0) != 0 ||
                          glide_huff_decode(&dec[1], tab.data() + 2 * seg0, (uint32_t)seg1, st.data() + cb0, total - cb0,
                                            c1.data(), n1) != 0;
            glide_huff_dec *d_dec = dalloc<glide_huff_dec>(2);
            CK(cudaMemcpy(d_dec, dec, sizeof dec, cudaMemcpyHostToDevice));
            uint8_t *d_tab = dalloc<uint8_t>(2 * n_seg), *d_st = dalloc<uint8_t>(total ? total : 1);
            CK(cudaMemcpy(d_tab, tab.data(), 2 * n_seg, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(d_st, st.data(), total, cudaMemcpyHostToDevice));
            CK(cudaMemset(d_err, 0, 4));
            CK(cudaMemset(d_out, 0xFF, (sym.size() + 8) * 2));
            /* the host's part of the codec's checks (gpu_decompress.c) comes first there */
            unsigned gerr = cb0 > total || (n1 == 0 && cb0 != total);
            if (!gerr) {
                CK(gg_huff_decode_planes(d_dec, d_dec + 1, d_tab, (uint32_t)n_seg, d_st, total, d_out, n0, d_out + base1,
                                         n1, d_err, scr, sd, 0));
                CK(cudaMemcpy(&gerr, d_err, 4, cudaMemcpyDeviceToHost));
            }
            std::vector<uint16_t> got(sym.size());
            CK(cudaMemcpy(got.data(), d_out, sym.size() * 2, cudaMemcpyDeviceToHost));
            bool same = (gerr != 0) == cpu_err;
            if (same && !cpu_err)
                same = std::equal(c0.begin(), c0.begin() + n0, got.begin()) &&
                       std::equal(c1.begin(), c1.begin() + n1, got.begin() + base1) &&
                       (corrupt || (std::equal(s0.begin(), s0.end(), got.begin()) &&
                                    std::equal(s1.begin(), s1.end(), got.begin() + base1)));
            check(same, "huffman planes decode n0 %llu n1 %llu (%s): gpu %s, cpu %s", (unsigned long long)n0,
                  (unsigned long long)n1, corrupt == 0 ? "intact" : corrupt == 1 ? "stream byte" :
                  corrupt == 2 ? "table byte" : "entry moved between planes", gerr ? "error" : "ok",
                  cpu_err ? "error" : "ok");
            CK(cudaFree(d_st));
            CK(cudaFree(d_tab));
            CK(cudaFree(d_dec));
        }
        CK(cudaFree(d_out));
        CK(cudaFree(d_err));
        CK(cudaFree(scr));
        CK(cudaFree(d_sym));
    }
    CK(cudaFree(d_out));
    CK(cudaFree(d_words));
    CK(cudaFree(d_hist1));
    CK(cudaFree(d_hist0));
    CK(cudaFree(d_hist));
    CK(cudaFree(dd.len));
    CK(cudaFree(dd.log2q));
}

/* Format 5's planes on the device (gg_planes_split, gg_planes_merge)
 * against FORMAT.md §10.6 written out as plainly as possible: symbols on
 * a grid are split by their coordinates (plane 0: all even within the
 * slab), and the GPU's split must give both planes where the codec puts
 * them, with plane 0's histogram, and its merge the raster order back.
 * Shapes cover odd and even extents (rows of whole groups of 8 take the
 * vector kernels), extents of 1, slabs with a short last slab, and grids
 * small and large enough for both vector widths. */
void test_planes_order(void)
{
    struct shp {
        uint32_t nz, ny, nx, rows;
    };
    const shp shapes[] = {{1, 1, 1, 1},     {1, 1, 37, 1},    {1, 9, 1, 1},       {1, 33, 20, 1},  {5, 6, 7, 5},
                          {2, 1, 8, 2},     {33, 20, 47, 33}, {91, 91, 91, 91},   {40, 9, 16, 16}, {37, 5, 8, 16},
                          {64, 64, 64, 64}, {300, 17, 13, 32}, {129, 130, 128, 129}, {256, 64, 72, 256}};
    int bad = 0;
    gg_state *d_st = dalloc<gg_state>(1);
    for (const shp &sh : shapes) {
        const uint64_t n = (uint64_t)sh.nz * sh.ny * sh.nx;
        if (g_quick && n > 2000000) continue;
        std::vector<uint16_t> sym = make_symbols(DIST_LAPLACE, n), s0, s1;
        std::vector<uint64_t> h0(GLIDE_NSYM, 0);
        for (uint32_t z = 0; z < sh.nz; z++)
            for (uint32_t y = 0; y < sh.ny; y++)
                for (uint32_t x = 0; x < sh.nx; x++) {
                    const uint16_t v = sym[((uint64_t)z * sh.ny + y) * sh.nx + x];
                    if (((z % sh.rows) | y | x) & 1u) s1.push_back(v);
                    else s0.push_back(v), h0[v]++;
                }
        const uint64_t n0 = s0.size(), base1 = gg_plane1_base(n0), len = gg_planes_len(n);
        std::vector<uint16_t> planes(len, 0);
        std::copy(s0.begin(), s0.end(), planes.begin());
        std::copy(s1.begin(), s1.end(), planes.begin() + base1);
        gg_grid g;
        memset(&g, 0, sizeof g);
        g.n[0] = sh.nz, g.n[1] = sh.ny, g.n[2] = sh.nx, g.slab_rows = sh.rows, g.count = n;
        uint16_t *d_sym = dalloc<uint16_t>(n), *d_pl = dalloc<uint16_t>(len);
        CK(cudaMemcpy(d_sym, sym.data(), n * 2, cudaMemcpyHostToDevice));
        CK(cudaMemset(d_pl, 0, len * 2));
        CK(cudaMemset(d_st, 0, sizeof *d_st));
        CK(gg_planes_split(d_sym, g, n0, d_pl, d_st, 0));
        std::vector<uint16_t> got(len);
        std::vector<uint64_t> gh(GLIDE_NSYM);
        CK(cudaMemcpy(got.data(), d_pl, len * 2, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(gh.data(), d_st->hist_pl[0], GLIDE_NSYM * 8, cudaMemcpyDeviceToHost));
        const bool split_ok = got == planes && gh == h0;
        CK(cudaMemcpy(d_pl, planes.data(), len * 2, cudaMemcpyHostToDevice));
        CK(cudaMemset(d_sym, 0xFF, n * 2));
        /* with the outlier words (gg_outlier_scan's: each word's OUTLIER bits, then the counts) */
        const uint64_t nw = (n + 31) / 32;
        uint32_t *d_words = dalloc<uint32_t>(2 * nw);
        CK(cudaMemset(d_words, 0xEE, 2 * nw * 4));
        int made = 0;
        CK(gg_planes_merge(d_pl, g, n0, d_sym, d_words, &made, 0));
        std::vector<uint16_t> back(n);
        std::vector<uint32_t> words(2 * nw), want(2 * nw, 0);
        CK(cudaMemcpy(back.data(), d_sym, n * 2, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(words.data(), d_words, 2 * nw * 4, cudaMemcpyDeviceToHost));
        CK(cudaFree(d_words));
        for (uint64_t i = 0; i < n; i++)
            if (sym[i] == GLIDE_SYM_OUTLIER) want[i / 32] |= 1u << (i % 32), want[nw + i / 32]++;
        const bool merge_ok = back == sym && (!made || words == want) && made == (sh.nx % 8 == 0);
        if ((!split_ok || !merge_ok) && bad++ < 5)
            printf("     planes %ux%ux%u slab %u: split %s, merge %s\n", sh.nz, sh.ny, sh.nx, sh.rows,
                   split_ok ? "ok" : "WRONG", merge_ok ? "ok" : "WRONG");
        CK(cudaFree(d_pl));
        CK(cudaFree(d_sym));
    }
    CK(cudaFree(d_st));
    check(bad == 0, "planes split (with plane 0's histogram) and merge (with the outlier words) on %zu grids (slabs, odd extents, extents of 1) "
          "as FORMAT.md orders them, %d wrong", sizeof shapes / sizeof *shapes, bad);
}

/* Format 5's planes read in place (plane_runs.h: rows of whole groups of
 * 64 points, whole slabs): plane 0's histogram from the raster order as
 * the split gives it, and one placed encode of both planes from the
 * raster order giving the CPU's table and stream for the planes cut out
 * as FORMAT.md §10.6 says. Shapes cover odd extents on axes 0 and 1,
 * slabs of one, two and odd row counts, both encoder forms (k_enc_small
 * up to 2048 segments, k_enc_fused past that), and grids the runs must
 * refuse (a short last slab, rows not of whole groups of 64). */
void test_planes_in_place(const glide_dictionary *d)
{
    struct shp {
        uint32_t nz, ny, nx, rows;
        int ok;
    };
    const shp shapes[] = {{1, 1, 64, 1, 1},   {1, 3, 64, 1, 1},    {2, 1, 64, 1, 1},      {3, 5, 128, 3, 1},
                          {5, 6, 64, 5, 1},   {40, 9, 64, 8, 1},   {7, 7, 192, 7, 1},     {9, 3, 64, 3, 1},
                          {6, 4, 64, 2, 1},   {64, 64, 64, 64, 1}, {33, 20, 256, 33, 1},  {48, 48, 1024, 48, 1},
                          {256, 256, 256, 256, 1}, {37, 5, 64, 16, 0}, {4, 4, 96, 4, 0},  {8, 8, 32, 8, 0}};
    int bad = 0, cases = 0;
    gg_state *d_st = dalloc<gg_state>(1);
    for (const shp &sh : shapes) {
        const uint64_t n = (uint64_t)sh.nz * sh.ny * sh.nx;
        if (g_quick && n > 2400000) continue;
        std::vector<uint16_t> sym = make_symbols(cases % 2 ? DIST_WIDE : DIST_LAPLACE, n), s0, s1;
        std::vector<uint64_t> h0(GLIDE_NSYM, 0);
        for (uint32_t z = 0; z < sh.nz; z++)
            for (uint32_t y = 0; y < sh.ny; y++)
                for (uint32_t x = 0; x < sh.nx; x++) {
                    const uint16_t v = sym[((uint64_t)z * sh.ny + y) * sh.nx + x];
                    if (((z % sh.rows) | y | x) & 1u) s1.push_back(v);
                    else s0.push_back(v), h0[v]++;
                }
        uint16_t *d_sym = dalloc<uint16_t>(n);
        CK(cudaMemcpy(d_sym, sym.data(), n * 2, cudaMemcpyHostToDevice));
        gg_plane_runs runs;
        const int ok = gg_plane_runs_make(sh.nz, sh.ny, sh.nx, sh.rows, &runs);
        cases++;
        if (ok != sh.ok) {
            if (bad++ < 5) printf("     in place %ux%ux%u slab %u: applies %d, should %d\n", sh.nz, sh.ny, sh.nx, sh.rows, ok, sh.ok);
            CK(cudaFree(d_sym));
            continue;
        }
        if (!ok) {
            CK(cudaFree(d_sym));
            continue;
        }
        const uint64_t n0 = s0.size(), n1 = s1.size();
        CK(cudaMemset(d_st, 0, sizeof *d_st));
        CK(gg_planes_hist0(d_sym, &runs, n0, d_st, 0, 0));
        std::vector<uint64_t> gh(GLIDE_NSYM);
        CK(cudaMemcpy(gh.data(), d_st->hist_pl[0], GLIDE_NSYM * 8, cudaMemcpyDeviceToHost));
        /* the CPU's coding of the planes cut out, against one placed encode read in place */
        const unsigned ids[2] = {(unsigned)rbelow(d->n_books), (unsigned)rbelow(d->n_books)};
        glide_huff_enc enc[2];
        for (int k = 0; k < 2; k++) glide_huff_enc_init(&enc[k], d->books[ids[k]].len);
        std::vector<uint8_t> ctab, cstream(2 * n + 64);
        const uint64_t total = cpu_encode_planes(enc, s0, s1, ctab, cstream);
        const size_t se = gg_huff_encode_scratch(n);
        void *scr = dscratch(se);
        uint64_t gbytes = 0;
        const bool hist_ok = gh == h0;
        const bool enc_ok = placed_matches(d_sym, n0, NULL, n1, &runs, enc, ctab, cstream, total, scr, se, &gbytes);
        if ((!hist_ok || !enc_ok) && bad++ < 5)
            printf("     in place %ux%ux%u slab %u: plane 0 histogram %s, encode %s (%llu vs %llu bytes)\n", sh.nz, sh.ny,
                   sh.nx, sh.rows, hist_ok ? "ok" : "WRONG", enc_ok ? "ok" : "WRONG", (unsigned long long)gbytes,
                   (unsigned long long)total);
        CK(cudaFree(scr));
        CK(cudaFree(d_sym));
    }
    CK(cudaFree(d_st));
    check(bad == 0 && cases > 0, "planes in place on %d grids: which grids take them, plane 0's histogram, and both planes "
          "encoded from the raster order as the CPU encodes the planes cut out, %d wrong", cases, bad);
}
