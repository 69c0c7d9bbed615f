/* data_dir.h - where tcsim finds its data (the A100 vectors) at run time.
 *
 * The data folder is $TCSIM_DATA_DIR when set; else, for an executable inside the build
 * tree it was built in, the source tree's data/ (both paths compiled in); else, for an
 * installed one, <bin>/../share/tcsim, <bin> the executable's folder (`cmake --install`
 * puts the data there, and the relative path survives a moved prefix). Looked up at run
 * time, so that an installed tcsim never reads the source tree it was built from and a
 * build tree needs no install step. */
#ifndef TCSIM_DATA_DIR_H
#define TCSIM_DATA_DIR_H

#include <stddef.h>

/* The help text's paragraph on the lookup above. */
#define DATA_DIR_HELP                                                                     \
    "The data folder is $TCSIM_DATA_DIR when set, else ../share/tcsim beside the\n"       \
    "executable once installed, or the source tree's data/ when run from its build tree.\n"

/* The data's folder `sub` ("vectors/a100") into buf. Returns 0 when it is a folder; else
 * -1 after "tcsim <cmd>: ..." on stderr naming the folder and how to name another. */
int data_dir_find(const char *cmd, const char *sub, char *buf, size_t cap);

#endif
