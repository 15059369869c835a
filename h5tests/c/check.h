/* Minimal test harness: every CHECK counts; the last line is "N passed, M failed". */
#ifndef GLIDE_CHECK_H
#define GLIDE_CHECK_H
#include <stdio.h>
static int n_pass, n_fail;
#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (cond) n_pass++;                                                     \
        else {                                                                  \
            n_fail++;                                                           \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                         \
            printf(__VA_ARGS__);                                                \
            printf("\n");                                                       \
        }                                                                       \
    } while (0)
#define CHECK_DONE() (printf("%d passed, %d failed\n", n_pass, n_fail), n_fail != 0)
#endif
