#undef T
#undef TBITS
#undef FN
