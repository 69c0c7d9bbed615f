/* cli_engine.c - cli_engine(): an engine from the registry, or why there is none. */
#include <stdio.h>
#include "cli_engine.h"

const engine_entry *cli_engine(const char *cmd, const char *name, engine_kind kind,
                               const char *lacking)
{
    const engine_entry *e = engine_find(name, kind);
    if (!e)
        fprintf(stderr, "tcsim %s: --engine rtl: this tcsim was built without the %s\n", cmd,
                lacking);
    return e;
}
