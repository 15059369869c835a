/* Interpolation, decoding: the reconstruction from the codes, with every check of §7 (interp.cuh). */
#include "interp.cuh"

GG_INTERP_INST_OP(OP_DECODE)
