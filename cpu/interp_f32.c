/* The interpolation predictor for float: one translation unit per type
 * so that the two, each large once its stencils are specialised, compile in
 * parallel. */
#include "predict.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GLIDE_T_IS_DOUBLE 0
#include "tmpl_begin.h"
#include "interp_tmpl.h"
#include "slice_tmpl.h"
#include "tmpl_end.h"
#undef GLIDE_T_IS_DOUBLE
