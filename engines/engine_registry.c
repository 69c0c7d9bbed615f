/* engine_registry.c - engine_find over the table this build links: engine_table.c (the
 * Verilated engines) or engine_table_none.c (none). */
#include <string.h>
#include "engine_registry.h"

const engine_entry *engine_find(const char *name, engine_kind kind)
{
    const engine_entry *list;
    size_t n = engine_list(&list);
    for (size_t i = 0; i < n; i++)
        if (list[i].kind == kind && !strcmp(list[i].name, name))
            return &list[i];
    return NULL;
}
