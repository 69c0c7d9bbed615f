/* check.h - the one CHECK of the model's unit tests: a failed condition prints its file,
 * line and message (the first 30 of them) and is counted in `failures`, which main()
 * turns into the exit status; `checks` counts the conditions evaluated, for a summary.
 * CHECK_COND(cond) is CHECK with the condition's own text as the message. Included once
 * per test program. */
#ifndef TCSIM_TEST_CHECK_H
#define TCSIM_TEST_CHECK_H
#include <stdio.h>

static int failures;
static unsigned long checks;
#define CHECK(cond, ...)                                      \
    do {                                                      \
        checks++;                                             \
        if (!(cond)) {                                        \
            if (failures++ < 30) {                            \
                printf("FAIL %s:%d: ", __FILE__, __LINE__);  \
                printf(__VA_ARGS__);                          \
                printf("\n");                                 \
            }                                                 \
        }                                                     \
    } while (0)
#define CHECK_COND(cond) CHECK(cond, "%s", #cond)

#endif
