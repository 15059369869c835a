/* The interpolation predictor's encoder and the slice method's, for float
 * (one translation unit a part and type, so that their large instances
 * compile in parallel: cpu/interp_tmpl.h). */
#include "predict.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GLIDE_T_IS_DOUBLE 0
#define GLIDE_TMPL_PART GLIDE_PART_ENCODE
#include "tmpl_begin.h"
#include "interp_tmpl.h"
#include "slice_tmpl.h"
#include "tmpl_end.h"
#undef GLIDE_TMPL_PART
#undef GLIDE_T_IS_DOUBLE
