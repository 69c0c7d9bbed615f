/* cli_engine.h - the commands' one way to an engine of --engine rtl: the registry
 * (engines/engine_registry.h), with the message of a build that lacks it. */
#ifndef TCSIM_CLI_ENGINE_H
#define TCSIM_CLI_ENGINE_H

#include "engine_registry.h"

/* The engine `name` of `kind`, or NULL after "tcsim CMD: --engine rtl: this tcsim was
 * built without the LACKING" on stderr (LACKING: what the user is missing and how to
 * get it, e.g. "tensor-core RTL (configure with -DTCSIM_RTL=ON)"). */
const engine_entry *cli_engine(const char *cmd, const char *name, engine_kind kind,
                               const char *lacking);

#endif
