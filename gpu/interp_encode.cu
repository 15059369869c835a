/* Interpolation, encoding: quantization codes and histograms from the values (interp.cuh). */
#include "interp.cuh"

GG_INTERP_INST_OP(OP_ENCODE)
