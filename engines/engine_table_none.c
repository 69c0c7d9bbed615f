/* engine_table_none.c - the registry of a build without the RTL: no engine, so every
 * `--engine rtl` says what the build lacks (engine_registry.h). */
#include "engine_registry.h"

size_t engine_list(const engine_entry **list)
{
    *list = NULL;
    return 0;
}
