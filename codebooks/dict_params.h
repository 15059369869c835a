/* The parameters the dictionaries were generated with: the single place they
 * are written down. glide_gen_dict uses them as its defaults (so the regen_dict
 * build target needs no arguments of its own) and h5tests/c/test_dict.c
 * regenerates the committed table from them.
 *
 * Once v1 is released these numbers are frozen together with dict_v1.c.
 * Before release, changing one of them and running
 *   cmake --build <build dir> --target regen_dict
 * is the whole procedure. */
#ifndef GLIDE_DICT_PARAMS_H
#define GLIDE_DICT_PARAMS_H

#define GLIDE_DICT_V1_BOOKS_PER_FAMILY 32
#define GLIDE_DICT_V1_HMIN 0.3 /* bits/symbol of the lowest-entropy book of each family */
#define GLIDE_DICT_V1_HMAX 9.0 /* ... of the highest (Cauchy peaks at 8.71 and stops there) */

/* Dictionary v2: v1's 96 books unchanged (ids 0..95), then mixed books
 * (dict.h, GLIDE_MIX_*) built on every GLIDE_DICT_V2_STRIDE-th v1 book of each
 * family (16 of 32: the dictionary-size table of DESIGN.md puts 16 scales per
 * family within 0.2 % of 32 in median loss). For each mass in the order listed, one run of 48 books:
 *   - fill: 1/32, 1/8, 1/4, 1/2 of the mass on the fill symbol, which v1
 *     leaves at its 16-bit floor (a chunk of ocean with 31 % land lost 39-62 %
 *     against a custom book). At 1/2 the fill symbol has a 1-bit code, which
 *     no Huffman code beats, so heavier fills need no book of their own;
 *   - spike: 1/4, 1/2, 3/4 on the zero code (fields mostly predicted
 *     exactly, such as cloud water: 5-11 % loss in v1).
 * 432 books. codebooks/explore_dict.py measured these choices. */
#define GLIDE_DICT_V2_STRIDE 2
#define GLIDE_DICT_V2_FILL_MASSES {1.0 / 32, 1.0 / 8, 1.0 / 4, 1.0 / 2}
#define GLIDE_DICT_V2_SPIKE_MASSES {1.0 / 4, 1.0 / 2, 3.0 / 4}

#endif
