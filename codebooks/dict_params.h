/* The parameters dictionary v1 was generated with: the single place they are
 * written down. glide_gen_dict uses them as its defaults (so the regen_dict
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

#endif
