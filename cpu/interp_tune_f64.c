/* The interpolation predictor's tuning and the predictor choice's estimate,
 * for double (one translation unit a part and type, so that their large
 * instances compile in parallel: cpu/interp_tmpl.h). */
#include "predict.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GLIDE_T_IS_DOUBLE 1
#define GLIDE_TMPL_PART GLIDE_PART_TUNE
#include "tmpl_begin.h"
#include "interp_tmpl.h"
#include "tmpl_end.h"
#undef GLIDE_TMPL_PART
#undef GLIDE_T_IS_DOUBLE
