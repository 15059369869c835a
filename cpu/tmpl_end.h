#undef T
#undef TBITS
#undef FN
#undef TFLOOR
