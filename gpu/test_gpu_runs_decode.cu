/* Format 8's run-coded planes on the device (gg_runs_decode,
 * gg_runs_decode_planes: runs_decode.cu) against the CPU: the symbols
 * glide_runs_decode gives for what glide_runs_encode wrote, and the same
 * verdict on damaged streams and on hand-made ones that break each rule of
 * FORMAT.md §10.7 (test_gpu_huff.cu runs these from its main). */
#include "test_gpu_huff.h"

namespace {

/* One plane's codes: its book (the collapsed histogram's custom book, or
 * the dictionary's best for it) and its class codes, on both sides. */
struct run_codes {
    glide_huff_enc enc;
    glide_huff_dec dec;
    glide_run_code rc;
    gg_run_code grc;
};

/* An event as the stream holds it: a symbol's codeword, for a run-coded
 * symbol with its run of len points (class codeword, extra bits); bad: a
 * class codeword no class has (all ones, where the class code leaves them
 * free) instead. */
struct event {
    uint16_t sym;
    uint32_t len;
    bool bad;
};
typedef std::vector<std::vector<event>> plane_events; /* per segment */

/* Symbol arrays with runs: the patterns the decoder must follow. */
enum { RS_SPARSE, RS_ZEROS, RS_FILL, RS_CROSS, RS_SINGLE, RS_MIXED, RS_DENSE, RS_COUNT };
const char *rs_name[] = {"sparse", "zeros", "fill runs", "across segments", "single points", "mixed", "dense"};

uint16_t laplace_sym(double scale)
{
    const double u = urand() - 0.5;
    const long q = lround(-scale * (u < 0 ? -1 : 1) * log(1 - 2 * fabs(u) + 1e-300));
    return (uint16_t)((q < -511 || q > 511) ? GLIDE_SYM_OUTLIER : (int)(q + GLIDE_SYM_ZERO));
}

/* a symbol that is neither ZERO nor FILL */
uint16_t other_sym(void)
{
    const uint16_t s = laplace_sym(3.0);
    return s == GLIDE_SYM_ZERO ? (uint16_t)(GLIDE_SYM_ZERO + 1 + rbelow(3)) : s;
}

std::vector<uint16_t> run_symbols(int kind, uint64_t n)
{
    std::vector<uint16_t> s(n);
    const uint64_t S = GLIDE_RUN_SEG_SYMS;
    for (uint64_t i = 0; i < n;) {
        uint64_t len = 1;
        uint16_t v = other_sym();
        switch (kind) {
        case RS_SPARSE: /* zero runs of mean 20, a few FILL runs, Laplace symbols between */
            if (rbelow(3) == 0) v = GLIDE_SYM_ZERO, len = 1 + (uint64_t)(-20 * log(1 - urand()));
            else if (rbelow(50) == 0) v = GLIDE_SYM_FILL, len = 1 + rbelow(300);
            else v = laplace_sym(1.5);
            break;
        case RS_ZEROS: /* zeros, a nonzero now and then in odd segments only: whole segments of zeros */
            v = GLIDE_SYM_ZERO;
            if ((i / S) % 2 && rbelow(2000) == 0) v = other_sym();
            break;
        case RS_FILL: /* FILL and ZERO runs back to back, of any length, a few other symbols */
            v = rbelow(2) ? GLIDE_SYM_FILL : GLIDE_SYM_ZERO, len = 1 + rbelow(rbelow(2) ? 2000 : 20);
            if (rbelow(10) == 0) v = other_sym(), len = 1;
            break;
        case RS_CROSS: /* runs across segment ends, one over a whole segment; other symbols elsewhere */
            if (i >= 4000 && i < 4200) v = GLIDE_SYM_ZERO;
            else if (i >= 8100 && i < 8300) v = GLIDE_SYM_FILL;
            else if (i >= 12000 && i < 20500) v = GLIDE_SYM_ZERO;
            else if (i % S >= S - 3 || i % S < 2) v = GLIDE_SYM_ZERO; /* short runs cut at every end */
            break;
        case RS_SINGLE: /* lone zeros and FILLs: class 0, alone or one kind right after the other */
            v = (i / 2) % 3 == 0 ? GLIDE_SYM_FILL : (i & 1) ? other_sym() : GLIDE_SYM_ZERO;
            if (i % 997 < 10) v = i & 1 ? GLIDE_SYM_FILL : GLIDE_SYM_ZERO;
            break;
        case RS_MIXED: /* runs of 1 to 5000 of either kind, or of other symbols */
            len = 1 + rbelow(rbelow(4) ? 40 : 5000);
            v = rbelow(3) == 0 ? GLIDE_SYM_ZERO : rbelow(2) ? GLIDE_SYM_FILL : 0xFFFF;
            break;
        default: /* dense: Laplace of scale 1.5, about a third zeros in short runs */
            v = laplace_sym(1.5);
            if (rbelow(500) == 0) v = GLIDE_SYM_FILL;
            break;
        }
        for (uint64_t k = 0; k < len && i < n; k++, i++) s[i] = v == 0xFFFF ? other_sym() : v;
    }
    return s;
}

/* The events glide_runs_encode writes: maximal runs of run-coded symbols within segments. */
plane_events events_of(const std::vector<uint16_t> &sym, const glide_run_code &rc)
{
    plane_events ev;
    const uint64_t n = sym.size();
    for (uint64_t s0 = 0; s0 < n; s0 += GLIDE_RUN_SEG_SYMS) {
        const uint64_t s1 = std::min<uint64_t>(n, s0 + GLIDE_RUN_SEG_SYMS);
        ev.emplace_back();
        for (uint64_t i = s0; i < s1;) {
            const uint16_t s = sym[i];
            const int k = s == GLIDE_SYM_ZERO ? 0 : s == GLIDE_SYM_FILL ? 1 : -1;
            uint64_t j = i + 1;
            if (k >= 0 && rc.on[k])
                while (j < s1 && sym[j] == s) j++;
            ev.back().push_back({s, k >= 0 && rc.on[k] ? (uint32_t)(j - i) : 0u, false});
            i = j;
        }
    }
    return ev;
}

/* Class lengths for ZERO and FILL: Huffman's of the runs (on: the kinds
 * to run-code), or a fixed incomplete code (every class, all-ones free). */
const uint8_t kFixedClasses[GLIDE_RUN_CLASSES] = {2, 2, 3, 4, 4, 4, 5, 5, 6, 6, 7, 8, 8};

run_codes make_codes(const std::vector<uint16_t> &sym, unsigned on, bool fixed, const glide_dictionary *dict)
{
    glide_run_stats st;
    glide_run_stats_count(sym.data(), sym.size(), &st);
    uint8_t len[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES] = {{0}};
    for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++) {
        if (!(on >> k & 1u)) continue;
        if (fixed) memcpy(len[k], kFixedClasses, GLIDE_RUN_CLASSES);
        else if (glide_huff_lengths(st.cls[k], GLIDE_RUN_CLASSES, GLIDE_RUN_MAX_LEN, len[k]) != 0)
            check(false, "class lengths of %llu runs", (unsigned long long)st.runs[k]);
    }
    run_codes c;
    if (glide_run_code_init(&c.rc, len) != 0) check(false, "glide_run_code_init takes the class lengths");
    gg_run_code_of(&c.rc, &c.grc);
    /* the book of the collapsed histogram: a run counts once */
    std::vector<uint64_t> hist(GLIDE_NSYM, 0);
    for (uint16_t v : sym) hist[v]++;
    for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++)
        if (c.rc.on[k]) hist[glide_run_sym[k]] = st.runs[k];
    uint8_t blen[GLIDE_NSYM];
    if (dict) {
        uint64_t bits;
        memcpy(blen, dict->books[glide_book_select(dict, hist.data(), GLIDE_SCORE_SIZE, &bits)].len, GLIDE_NSYM);
    } else if (glide_huff_lengths(hist.data(), GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, blen) != 0) {
        check(false, "book of the collapsed histogram");
    }
    if (!dict && sym.empty()) blen[GLIDE_SYM_ZERO] = 1; /* an empty plane: any valid book */
    glide_huff_enc_init(&c.enc, blen);
    if (glide_huff_dec_init(&c.dec, blen) != 0) check(false, "glide_huff_dec_init takes the book");
    return c;
}

/* MSB-first bits, as the encoders write them */
struct bit_out {
    std::vector<uint8_t> out;
    uint64_t acc = 0;
    unsigned nb = 0;
    void put(uint32_t v, unsigned n)
    {
        acc = acc << n | v;
        nb += n;
        while (nb >= 8) {
            out.push_back((uint8_t)(acc >> (nb - 8)));
            nb -= 8;
        }
        acc &= (1ull << nb) - 1;
    }
    /* to the byte's end; bad_pad: the last padding bit set */
    void pad(bool bad_pad)
    {
        if (!nb) return;
        out.push_back((uint8_t)(acc << (8 - nb) | (bad_pad ? 1u : 0u)));
        acc = 0;
        nb = 0;
    }
};

/* Table and stream of a plane's events; bad_pad_seg: that segment's
 * padding gets a bit set (where it has padding). */
void write_plane(const run_codes &c, const plane_events &ev, std::vector<uint8_t> &tab, std::vector<uint8_t> &st,
                 int64_t bad_pad_seg = -1)
{
    bit_out b;
    tab.clear();
    for (size_t g = 0; g < ev.size(); g++) {
        const size_t start = b.out.size();
        for (const event &e : ev[g]) {
            b.put(c.enc.code[e.sym], c.enc.len[e.sym]);
            const int k = e.sym == GLIDE_SYM_ZERO ? 0 : e.sym == GLIDE_SYM_FILL ? 1 : -1;
            if (e.bad) {
                b.put((1u << GLIDE_RUN_MAX_LEN) - 1, GLIDE_RUN_MAX_LEN);
            } else if (e.len) {
                const unsigned cl = glide_run_class(e.len);
                b.put(c.rc.code[k][cl], c.rc.len[k][cl]);
                b.put(e.len - (1u << cl), cl);
            }
        }
        b.pad((int64_t)g == bad_pad_seg);
        const size_t bytes = b.out.size() - start;
        tab.push_back((uint8_t)bytes);
        tab.push_back((uint8_t)(bytes >> 8));
    }
    st = b.out;
}

/* Decodes on the device from buffers of exactly the sizes given (inputs
 * misaligned by in_off, the output by out_off); the error word. */
unsigned gpu_runs(const run_codes &c, const std::vector<uint8_t> &tab, uint32_t n_seg, const std::vector<uint8_t> &st,
                  uint64_t n, std::vector<uint16_t> &out, unsigned out_off, unsigned in_off)
{
    glide_huff_dec *d_dec = dalloc<glide_huff_dec>(1);
    CK(cudaMemcpy(d_dec, &c.dec, sizeof c.dec, cudaMemcpyHostToDevice));
    uint8_t *d_tab = dalloc<uint8_t>(2 * (size_t)n_seg + in_off), *d_st = dalloc<uint8_t>(st.size() + in_off);
    CK(cudaMemcpy(d_tab + in_off, tab.data(), 2 * (size_t)n_seg, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_st + in_off, st.data(), st.size(), cudaMemcpyHostToDevice));
    uint16_t *d_sym = dalloc<uint16_t>(n + out_off);
    unsigned *d_err = dalloc<unsigned>(1);
    const size_t sb = gg_runs_decode_scratch(n);
    void *scr = dscratch(sb);
    /* the codec's walk (GG_WALK_AUTO), then one lane alone, a warp and a block on every segment: the same
     * verdict and symbols */
    static const uint8_t walks[4] = {GG_WALK_AUTO, GG_WALK_ALONE, GG_WALK_WARP, GG_WALK_BLOCK};
    static const char *const walk_name[4] = {"auto", "one lane", "a warp", "a block"};
    unsigned err[4];
    std::vector<uint16_t> other(n);
    for (int a = 0; a < 4; a++) {
        gg_run_code grc = c.grc;
        grc.walk = walks[a];
        CK(cudaMemset(d_sym, 0xFF, (n + out_off) * 2)); /* each walk from an output it has not seen */
        CK(cudaMemset(d_err, 0, sizeof(unsigned)));
        CK(gg_runs_decode(d_dec, &grc, d_tab + in_off, n_seg, d_st + in_off, st.size(), d_sym + out_off, n, d_err,
                          scr, sb, 0));
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(&err[a], d_err, sizeof(unsigned), cudaMemcpyDeviceToHost));
        if (a == 0) {
            out.resize(n);
            CK(cudaMemcpy(out.data(), d_sym + out_off, n * 2, cudaMemcpyDeviceToHost));
            continue;
        }
        CK(cudaMemcpy(other.data(), d_sym + out_off, n * 2, cudaMemcpyDeviceToHost));
        check((err[0] != 0) == (err[a] != 0) && (err[0] || other == out),
              "runs decode n=%llu: the codec's walk and %s a segment agree (%s / %s%s)", (unsigned long long)n,
              walk_name[a], err[0] ? "error" : "ok", err[a] ? "error" : "ok",
              err[0] || other == out ? "" : ", symbols DIFFER");
    }
    CK(cudaFree(scr));
    CK(cudaFree(d_err));
    CK(cudaFree(d_sym));
    CK(cudaFree(d_st));
    CK(cudaFree(d_tab));
    CK(cudaFree(d_dec));
    return err[0];
}

/* CPU and GPU on one (possibly damaged) plane: an error on one side iff on
 * the other, equal symbols where both succeed. */
bool runs_agree(const run_codes &c, const std::vector<uint8_t> &tab, uint32_t n_seg, const std::vector<uint8_t> &st,
                uint64_t n, int *cpu_err_out)
{
    std::vector<uint16_t> cs(n ? n : 1), gs;
    const int cpu_err = glide_runs_decode(&c.dec, &c.rc, tab.data(), n_seg, st.data(), st.size(), cs.data(), n) != 0;
    const unsigned gerr = gpu_runs(c, tab, n_seg, st, n, gs, (unsigned)rbelow(4), (unsigned)rbelow(4));
    if (cpu_err_out) *cpu_err_out = cpu_err;
    return cpu_err == (gerr != 0) && (cpu_err || std::equal(gs.begin(), gs.end(), cs.begin()));
}

/* Random damage: bits of the stream or the table, entries moved, the stream cut or lengthened. */
void damage_runs(const run_codes &c, const std::vector<uint8_t> &tab, const std::vector<uint8_t> &st, uint64_t n,
                 const char *name, int trials)
{
    const uint32_t n_seg = (uint32_t)(tab.size() / 2);
    int bad = 0, errs = 0;
    for (int t = 0; t < trials; t++) {
        std::vector<uint8_t> tb = tab, s = st;
        const int kind = t % 5;
        if (kind == 0 && !s.empty()) {
            for (int f = 0, flips = 1 + (int)rbelow(3); f < flips; f++) s[rbelow(s.size())] ^= (uint8_t)(1u << rbelow(8));
        } else if (kind == 1) {
            tb[rbelow(tb.size())] ^= (uint8_t)(1u << rbelow(8));
        } else if (kind == 2 && n_seg > 1) { /* two entries moved, the same total */
            const uint32_t k = (uint32_t)rbelow(n_seg - 1);
            unsigned a = tb[2 * k] | tb[2 * k + 1] << 8, b = tb[2 * k + 2] | tb[2 * k + 3] << 8;
            const unsigned d = 1 + (unsigned)rbelow(3);
            if (a >= d) a -= d, b += d;
            tb[2 * k] = (uint8_t)a, tb[2 * k + 1] = (uint8_t)(a >> 8);
            tb[2 * k + 2] = (uint8_t)b, tb[2 * k + 3] = (uint8_t)(b >> 8);
        } else if (kind == 3) { /* the stream shorter or longer than the entries */
            if (rnd() & 1) s.resize(s.size() - std::min<size_t>(s.size(), 1 + rbelow(4)));
            else s.resize(s.size() + 1 + rbelow(4), (uint8_t)rnd());
        } else if (!s.empty()) { /* a byte anywhere replaced */
            s[rbelow(s.size())] = (uint8_t)rnd();
        }
        int cerr = 0;
        if (!runs_agree(c, tb, n_seg, s, n, &cerr) && bad++ < 5)
            printf("     runs decode %s damage %d (kind %d): cpu %s, gpu disagrees\n", name, t, kind, cerr ? "error" : "ok");
        errs += cerr;
    }
    check(bad == 0, "runs decode %s: %d damaged streams (%d rejected by the CPU), the GPU's verdict and symbols the "
          "CPU's: %d disagree", name, trials, errs, bad);
}

/* One plane written both ways (glide_runs_encode and the events above,
 * which must agree), decoded by the CPU and the GPU. */
void runs_case(const std::vector<uint16_t> &sym, const run_codes &c, const char *name, int trials)
{
    const uint64_t n = sym.size(), n_seg = glide_plane_segments(n, 1);
    std::vector<uint8_t> ctab(2 * n_seg + 1), cst(4 * n + 64), tab, st;
    const size_t sz = glide_runs_encode(&c.enc, &c.rc, sym.data(), n, ctab.data(), cst.data(), cst.size());
    ctab.resize(2 * n_seg);
    cst.resize(sz == (size_t)-1 ? 0 : sz);
    write_plane(c, events_of(sym, c.rc), tab, st);
    check(sz != (size_t)-1 && tab == ctab && st == cst, "runs %s n=%llu: the test's writer gives glide_runs_encode's "
          "table and stream (%zu bytes)", name, (unsigned long long)n, sz);
    std::vector<uint16_t> cs(n ? n : 1), gs;
    const size_t cr = glide_runs_decode(&c.dec, &c.rc, tab.data(), n_seg, st.data(), st.size(), cs.data(), n);
    const unsigned o_off = (unsigned)rbelow(4), i_off = (unsigned)rbelow(4);
    const unsigned gerr = gpu_runs(c, tab, (uint32_t)n_seg, st, n, gs, o_off, i_off);
    check(cr == 0 && gerr == 0 && gs == sym, "runs decode %s n=%llu (output +%u, inputs +%u): cpu %s, gpu err %u, "
          "symbols %s", name, (unsigned long long)n, o_off, i_off, cr ? "error" : "ok", gerr,
          gs == sym ? "equal" : "DIFFERENT");
    if (trials) damage_runs(c, tab, st, n, name, trials);
}

/* Hand-made streams that break one rule each: the CPU must reject every
 * one, and the GPU too. */
void broken_cases(void)
{
    int bad = 0, cases = 0;
    auto expect_error = [&](const char *what, const run_codes &c, const std::vector<uint8_t> &tab,
                            const std::vector<uint8_t> &st, uint64_t n) {
        int cerr = 0;
        const bool agree = runs_agree(c, tab, (uint32_t)(tab.size() / 2), st, n, &cerr);
        const bool gerr = agree ? cerr != 0 : cerr == 0;
        cases++;
        if ((!agree || !cerr) && bad++ < 8)
            printf("     broken stream (%s), n=%llu: cpu %s, gpu %s\n", what, (unsigned long long)n,
                   cerr ? "error" : "ok", gerr ? "error" : "ok");
    };
    const uint64_t sizes[] = {5000, 4096, 3 * 4096 + 77, 1000};
    for (uint64_t n : sizes)
        for (int pattern = 0; pattern < 3; pattern++) {
            const std::vector<uint16_t> sym = run_symbols(pattern == 0 ? RS_SPARSE : pattern == 1 ? RS_FILL : RS_ZEROS, n);
            const run_codes c = make_codes(sym, 3, true, NULL); /* the fixed class code: all-ones is no class */
            const plane_events ev = events_of(sym, c.rc);
            std::vector<uint8_t> tab, st, tb, s;
            write_plane(c, ev, tab, st);
            /* a run in segment g: its index there */
            auto find_run = [&](size_t g, uint32_t min_len) -> int64_t {
                for (size_t i = 0; i < ev[g].size(); i++)
                    if (ev[g][i].len >= min_len) return (int64_t)i;
                return -1;
            };
            const size_t g = (size_t)rbelow(ev.size());
            /* a truncated entry: a segment one byte short */
            {
                tb = tab, s = st;
                size_t off = 0;
                for (size_t k = 0; k < g; k++) off += tab[2 * k] | tab[2 * k + 1] << 8;
                const unsigned e = tab[2 * g] | tab[2 * g + 1] << 8;
                s.erase(s.begin() + (off + e - 1));
                tb[2 * g] = (uint8_t)(e - 1), tb[2 * g + 1] = (uint8_t)((e - 1) >> 8);
                expect_error("truncated entry", c, tb, s, n);
            }
            /* a run not maximal: one split in two */
            const int64_t r = find_run(g, 2);
            if (r >= 0) {
                plane_events e2 = ev;
                const event x = e2[g][r];
                const uint32_t a = 1 + (uint32_t)rbelow(x.len - 1);
                e2[g][r].len = a;
                e2[g].insert(e2[g].begin() + r + 1, event{x.sym, x.len - a, false});
                write_plane(c, e2, tb, s);
                expect_error("a run split in two", c, tb, s, n);
            }
            /* a run past the segment's end: the last event a run a few points longer, or a run of
             * more points than the one left (of the kind the event before did not run) */
            {
                plane_events e2 = ev;
                const size_t m = e2[g].size();
                event &last = e2[g][m - 1];
                if (last.len) {
                    last.len += 1 + (uint32_t)rbelow(3);
                } else {
                    const bool after_zero = m > 1 && e2[g][m - 2].len && e2[g][m - 2].sym == GLIDE_SYM_ZERO;
                    last = event{after_zero ? (uint16_t)GLIDE_SYM_FILL : (uint16_t)GLIDE_SYM_ZERO,
                                 2 + (uint32_t)rbelow(40), false};
                }
                write_plane(c, e2, tb, s);
                expect_error("a run past the segment's end", c, tb, s, n);
            }
            /* padding bits set, where the segment has padding */
            {
                write_plane(c, ev, tb, s, (int64_t)g);
                if (s != st) expect_error("padding bits set", c, tb, s, n);
            }
            /* a class codeword no class has */
            const int64_t r1 = find_run(g, 1);
            if (r1 >= 0) {
                plane_events e2 = ev;
                e2[g][r1].bad = true;
                write_plane(c, e2, tb, s);
                expect_error("an unknown class codeword", c, tb, s, n);
            }
            /* an entry over GLIDE_RUN_SEG_MAX_BYTES, the stream as long as the entries say */
            {
                tb = tab, s = st;
                const unsigned e = GLIDE_RUN_SEG_MAX_BYTES + 1 + (unsigned)rbelow(100);
                const unsigned old = tab[2 * g] | tab[2 * g + 1] << 8;
                tb[2 * g] = (uint8_t)e, tb[2 * g + 1] = (uint8_t)(e >> 8);
                size_t off = 0;
                for (size_t k = 0; k <= g; k++) off += tab[2 * k] | tab[2 * k + 1] << 8;
                s.insert(s.begin() + off, e - old, 0);
                expect_error("an entry over the maximum", c, tb, s, n);
            }
            /* entries that add up to less than the stream */
            {
                s = st;
                s.push_back(0);
                expect_error("a byte after the last segment", c, tab, s, n);
            }
        }
    check(bad == 0 && cases > 50, "runs decode: %d hand-made streams breaking one rule of FORMAT.md §10.7 each, every one "
          "rejected by the CPU and the GPU: %d not", cases, bad);

    /* the same rules broken where they are easy to see: one segment of zeros */
    {
        std::vector<uint16_t> sym(GLIDE_RUN_SEG_SYMS, GLIDE_SYM_ZERO);
        const run_codes c = make_codes(sym, 1, true, NULL);
        std::vector<uint8_t> tab, st;
        int ok_runs = 0, errs = 0;
        /* a whole segment as one run of class 12, and as the same split in every way a few times */
        plane_events ev = {{{GLIDE_SYM_ZERO, GLIDE_RUN_SEG_SYMS, false}}};
        write_plane(c, ev, tab, st);
        ok_runs += runs_agree(c, tab, 1, st, GLIDE_RUN_SEG_SYMS, &errs) && !errs;
        ev = {{{GLIDE_SYM_ZERO, GLIDE_RUN_SEG_SYMS + 1, false}}};
        write_plane(c, ev, tab, st);
        int e1 = 0;
        const bool a1 = runs_agree(c, tab, 1, st, GLIDE_RUN_SEG_SYMS, &e1);
        ev = {{{GLIDE_SYM_ZERO, 2000, false}, {GLIDE_SYM_ZERO, GLIDE_RUN_SEG_SYMS - 2000, false}}};
        write_plane(c, ev, tab, st);
        int e2 = 0;
        const bool a2 = runs_agree(c, tab, 1, st, GLIDE_RUN_SEG_SYMS, &e2);
        check(ok_runs == 1 && a1 && e1 && a2 && e2,
              "runs decode: a segment of zeros as one class 12 run decodes; as a run of 4097 and as two runs it is "
              "rejected on both sides");
    }
    /* a ZERO run right after a FILL run and the reverse are maximal; a second ZERO run after one is not */
    {
        std::vector<uint16_t> sym(300);
        for (size_t i = 0; i < sym.size(); i++) sym[i] = (i / 50) % 2 ? GLIDE_SYM_FILL : GLIDE_SYM_ZERO;
        const run_codes c = make_codes(sym, 3, false, NULL);
        std::vector<uint8_t> tab, st;
        write_plane(c, events_of(sym, c.rc), tab, st);
        int e0 = 1, e1 = 0;
        const bool a0 = runs_agree(c, tab, 1, st, sym.size(), &e0);
        plane_events ev = events_of(sym, c.rc);
        ev[0][1].sym = GLIDE_SYM_ZERO; /* ZERO 50, ZERO 50, ZERO 50, ...: the second is not maximal */
        write_plane(c, ev, tab, st);
        const bool a1 = runs_agree(c, tab, 1, st, sym.size(), &e1);
        check(a0 && !e0 && a1 && e1, "runs decode: ZERO and FILL runs alternating decode; two ZERO runs in a row are "
              "rejected on both sides");
    }
}

/* Both planes run-coded in one launch, against the CPU decoding each
 * plane alone on its part of the table and stream (plane 1 where the
 * codec puts it: plane 0 rounded up to 8 symbols). */
void planes_case(uint64_t n0, uint64_t n1, int k0, int k1, const glide_dictionary *d)
{
    const std::vector<uint16_t> s0 = run_symbols(k0, n0), s1 = run_symbols(k1, n1);
    const run_codes c[2] = {make_codes(s0, 1 + (unsigned)rbelow(3), false, d), make_codes(s1, 3, false, NULL)};
    const uint64_t seg0 = glide_plane_segments(n0, 1), seg1 = glide_plane_segments(n1, 1), n_seg = seg0 + seg1;
    const uint64_t base1 = (n0 + 7) & ~(uint64_t)7;
    std::vector<uint8_t> tab0, st0, tab1, st1;
    write_plane(c[0], events_of(s0, c[0].rc), tab0, st0);
    write_plane(c[1], events_of(s1, c[1].rc), tab1, st1);
    glide_huff_dec *d_dec = dalloc<glide_huff_dec>(2);
    CK(cudaMemcpy(d_dec, &c[0].dec, sizeof c[0].dec, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_dec + 1, &c[1].dec, sizeof c[1].dec, cudaMemcpyHostToDevice));
    const gg_run_code grc[2] = {c[0].grc, c[1].grc};
    const size_t sb = gg_runs_decode_scratch(n0 + n1);
    void *scr = dscratch(sb);
    uint16_t *d_out = dalloc<uint16_t>(base1 + n1 + 8);
    unsigned *d_err = dalloc<unsigned>(1);
    for (int corrupt = 0; corrupt < 4; corrupt++) {
        std::vector<uint8_t> tab = tab0, st = st0;
        tab.insert(tab.end(), tab1.begin(), tab1.end());
        st.insert(st.end(), st1.begin(), st1.end());
        if (corrupt == 1 && !st.empty()) st[rbelow(st.size())] ^= (uint8_t)(1 + rbelow(255));
        if (corrupt == 2) tab[2 * rbelow(n_seg)] ^= (uint8_t)(1 + rbelow(255));
        if (corrupt == 3 && seg1) { /* a byte moved from plane 0's entries to plane 1's: the total still holds */
            tab[0] = (uint8_t)(tab[0] - 1);
            tab[2 * seg0] = (uint8_t)(tab[2 * seg0] + 1);
        }
        const uint64_t total = st.size();
        uint64_t cb0 = 0;
        for (uint64_t k = 0; k < seg0; k++) cb0 += tab[2 * k] | (uint64_t)tab[2 * k + 1] << 8;
        std::vector<uint16_t> c0(n0 ? n0 : 1), c1(n1 ? n1 : 1);
        /* the host's checks (gpu_decompress.c), then each plane as the CPU decodes it */
        const bool host_err = cb0 > total || (n1 == 0 && cb0 != total);
        bool cpu_err = host_err;
        if (!cpu_err)
            cpu_err = glide_runs_decode(&c[0].dec, &c[0].rc, tab.data(), seg0, st.data(), cb0, c0.data(), n0) != 0 ||
                      glide_runs_decode(&c[1].dec, &c[1].rc, tab.data() + 2 * seg0, seg1, st.data() + cb0, total - cb0,
                                        c1.data(), n1) != 0;
        uint8_t *d_tab = dalloc<uint8_t>(2 * n_seg), *d_st = dalloc<uint8_t>(total);
        CK(cudaMemcpy(d_tab, tab.data(), 2 * n_seg, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_st, st.data(), total, cudaMemcpyHostToDevice));
        CK(cudaMemset(d_err, 0, 4));
        CK(cudaMemset(d_out, 0xFF, (base1 + n1 + 8) * 2));
        unsigned gerr = host_err;
        if (!gerr) {
            CK(gg_runs_decode_planes(d_dec, d_dec + 1, grc, d_tab, (uint32_t)n_seg, d_st, total, d_out, n0,
                                     d_out + base1, n1, d_err, scr, sb, 0));
            CK(cudaMemcpy(&gerr, d_err, 4, cudaMemcpyDeviceToHost));
        }
        std::vector<uint16_t> got(base1 + n1);
        CK(cudaMemcpy(got.data(), d_out, got.size() * 2, cudaMemcpyDeviceToHost));
        bool same = (gerr != 0) == cpu_err;
        if (same && !cpu_err)
            same = std::equal(c0.begin(), c0.begin() + n0, got.begin()) &&
                   std::equal(c1.begin(), c1.begin() + n1, got.begin() + base1) &&
                   (corrupt || (std::equal(s0.begin(), s0.end(), got.begin()) &&
                                std::equal(s1.begin(), s1.end(), got.begin() + base1)));
        check(same, "runs planes decode n0 %llu (%s) n1 %llu (%s), %s: gpu %s, cpu %s", (unsigned long long)n0,
              rs_name[k0], (unsigned long long)n1, rs_name[k1],
              corrupt == 0 ? "intact" : corrupt == 1 ? "stream byte" : corrupt == 2 ? "table byte"
                                                                       : "entry moved between planes",
              gerr ? "error" : "ok", cpu_err ? "error" : "ok");
        CK(cudaFree(d_st));
        CK(cudaFree(d_tab));
    }
    CK(cudaFree(d_err));
    CK(cudaFree(d_out));
    CK(cudaFree(scr));
    CK(cudaFree(d_dec));
}

} /* namespace */

void test_runs_decode(const glide_dictionary *d)
{
    char name[160];
    if (g_checks_on) {
        /* up to 2048 segments each block adds its offsets itself, past that a scan gives them */
        std::vector<uint64_t> sizes = {1, 2, 4095, 4096, 4097, 3 * 4096 + 5, 100000, 1000003};
        if (!g_quick) sizes.push_back(2048 * 4096 + 5);
        for (uint64_t n : sizes)
            for (int kind = 0; kind < RS_COUNT; kind++) {
                if (n > 2000000 && kind != RS_SPARSE && kind != RS_DENSE) continue;
                const std::vector<uint16_t> sym = run_symbols(kind, n);
                const int trials = n > 2000000 ? 5 : n > 20000 ? 20 : 40;
                /* which kinds run: both, ZERO alone, FILL alone; custom and dictionary books */
                for (unsigned on = 1; on <= 3; on++) {
                    if (n > 2000000 && on != 3) continue;
                    snprintf(name, sizeof name, "%s, %s runs, custom book", rs_name[kind],
                             on == 3 ? "ZERO and FILL" : on == 1 ? "ZERO" : "FILL");
                    runs_case(sym, make_codes(sym, on, false, NULL), name, on == 3 ? trials : 0);
                }
                snprintf(name, sizeof name, "%s, fixed class code, dictionary book", rs_name[kind]);
                runs_case(sym, make_codes(sym, 3, true, d), name, trials);
            }
        broken_cases();
        /* no symbols: no segments and no bytes, else an error */
        {
            const std::vector<uint16_t> none;
            const run_codes c = make_codes(none, 1, true, NULL);
            std::vector<uint8_t> tab(2, 0), st;
            int e0 = 1, e1 = 0, e2 = 0;
            const bool a0 = runs_agree(c, tab, 0, st, 0, &e0);
            st.push_back(0);
            const bool a1 = runs_agree(c, tab, 0, st, 0, &e1);
            st.clear();
            const bool a2 = runs_agree(c, tab, 1, st, 0, &e2);
            check(a0 && !e0 && a1 && e1 && a2 && e2, "runs decode n=0: no segments decode; a stream byte or a segment "
                  "is an error on both sides");
        }
        const uint64_t psizes[][2] = {{1, 0}, {1, 1}, {7, 40}, {4096, 4096}, {5000, 70000}, {262144, 1835008},
                                      {3000000, 5500000}};
        for (const auto &sz : psizes) {
            if (g_quick && sz[0] + sz[1] > 2400000) continue;
            planes_case(sz[0], sz[1], RS_SPARSE, RS_MIXED, d);
            planes_case(sz[0], sz[1], RS_DENSE, RS_FILL, NULL);
        }
    }
    if (g_timing) {
        warm_gpu();
        /* plane 1 of a 64^3 and of a 256^3 chunk: 7/8 of its points */
        for (uint64_t side : {64, 256}) {
            for (int kind : {RS_SPARSE, RS_DENSE, RS_ZEROS}) {
                const uint64_t n = side * side * side / 8 * 7;
                const std::vector<uint16_t> sym = run_symbols(kind, n);
                const run_codes c = make_codes(sym, 3, false, d);
                std::vector<uint8_t> tab, st;
                write_plane(c, events_of(sym, c.rc), tab, st);
                const uint64_t n_seg = tab.size() / 2;
                glide_huff_dec *d_dec = dalloc<glide_huff_dec>(1);
                CK(cudaMemcpy(d_dec, &c.dec, sizeof c.dec, cudaMemcpyHostToDevice));
                uint8_t *d_tab = dalloc<uint8_t>(tab.size()), *d_st = dalloc<uint8_t>(st.size());
                CK(cudaMemcpy(d_tab, tab.data(), tab.size(), cudaMemcpyHostToDevice));
                CK(cudaMemcpy(d_st, st.data(), st.size(), cudaMemcpyHostToDevice));
                uint16_t *d_sym = dalloc<uint16_t>(n);
                unsigned *d_err = dalloc<unsigned>(1);
                const size_t sb = gg_runs_decode_scratch(n);
                void *scr = dscratch(sb);
                static const uint8_t walks[3] = {GG_WALK_WARP, GG_WALK_BLOCK, GG_WALK_ALONE};
                static const char *const walk_name[3] = {"a warp a segment", "a block a segment", "one lane a segment"};
                for (int a = 0; a < 3; a++) {
                    gg_run_code grc = c.grc;
                    grc.walk = walks[a];
                    CK(cudaMemset(d_sym, 0, n * 2));
                    CK(cudaMemset(d_err, 0, 4));
                    const double us = time_us([&] {
                        CK(gg_runs_decode(d_dec, &grc, d_tab, (uint32_t)n_seg, d_st, st.size(), d_sym, n, d_err, scr,
                                          sb, 0));
                    }, 10);
                    std::vector<uint16_t> back(n);
                    CK(cudaMemcpy(back.data(), d_sym, n * 2, cudaMemcpyDeviceToHost));
                    const unsigned err = dread32(d_err);
                    printf("time runs decode %llu symbols, %s (%.3f bits/sym), %s: %.1f us (%.2f Gsym/s)%s\n",
                           (unsigned long long)n, rs_name[kind], 8.0 * st.size() / n, walk_name[a],
                           us, n / (1e3 * us), err || back != sym ? " WRONG RESULT" : "");
                }
                CK(cudaFree(scr));
                CK(cudaFree(d_err));
                CK(cudaFree(d_sym));
                CK(cudaFree(d_st));
                CK(cudaFree(d_tab));
                CK(cudaFree(d_dec));
            }
        }
    }
}
