/* check.h - the one CHECK of the model's unit tests: a failed condition prints its file,
 * line and message (the first 30 of them) and is counted in `failures`, which main()
 * turns into the exit status. Included once per test program. */
#ifndef TCSIM_TEST_CHECK_H
#define TCSIM_TEST_CHECK_H
#include <stdio.h>

static int failures;
#define CHECK(cond, ...)                                      \
    do {                                                      \
        if (!(cond)) {                                        \
            if (failures++ < 30) {                            \
                printf("FAIL %s:%d: ", __FILE__, __LINE__);  \
                printf(__VA_ARGS__);                          \
                printf("\n");                                 \
            }                                                 \
        }                                                     \
    } while (0)

#endif
