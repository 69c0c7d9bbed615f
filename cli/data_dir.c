/* data_dir.c - the data folder looked up at run time (data_dir.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "data_dir.h"

/* The folder of the running executable (symbolic links resolved) into dir[PATH_MAX];
 * -1 when it is unknown (no /proc). */
static int exe_dir(char *dir)
{
    ssize_t n = readlink("/proc/self/exe", dir, PATH_MAX - 1);
    if (n <= 0 || n >= PATH_MAX - 1)
        return -1;
    dir[n] = 0;
    char *end = strrchr(dir, '/');
    if (!end)
        return -1;
    *end = 0;
    return 0;
}

/* Whether path lies in folder (both resolved). */
static int is_inside(const char *path, const char *folder)
{
    size_t n = strlen(folder);
    return !strncmp(path, folder, n) && (path[n] == '/' || path[n] == 0);
}

/* The data folder without $TCSIM_DATA_DIR into buf; -1 when the executable's folder is
 * unknown or the path does not fit. An installed one's "../" are taken off <bin>
 * (/usr/local/share/tcsim, not /usr/local/bin/../share/tcsim), to name it plainly. */
static int default_dir(char *buf, size_t cap)
{
    char dir[PATH_MAX], build[PATH_MAX];
    if (exe_dir(dir))
        return -1;
    const char *rel = TCSIM_INSTALL_DATA_REL;
    int n;
    if (realpath(TCSIM_BUILD_DIR, build) && is_inside(dir, build)) {
        n = snprintf(buf, cap, "%s", TCSIM_DATA_DIR);
    } else {
        for (char *end; !strncmp(rel, "../", 3) && (end = strrchr(dir, '/')); rel += 3)
            *end = 0;
        n = snprintf(buf, cap, "%s/%s", dir, rel);
    }
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int data_dir_find(const char *cmd, const char *sub, char *buf, size_t cap)
{
    const char *env = getenv("TCSIM_DATA_DIR"), *why = "TCSIM_DATA_DIR names the data folder";
    char data[PATH_MAX];
    if (!env || !*env) {
        if (default_dir(data, sizeof data)) {
            fprintf(stderr, "tcsim %s: cannot tell where tcsim's data folder is (the "
                            "executable's path is unknown): set TCSIM_DATA_DIR\n", cmd);
            return -1;
        }
        env = data;
        why = "set TCSIM_DATA_DIR to another data folder, or name the folder on the "
              "command line";
    }
    int n = snprintf(buf, cap, "%s/%s", env, sub);
    struct stat st;
    if (n >= 0 && (size_t)n < cap && stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    fprintf(stderr, "tcsim %s: no folder %s/%s (%s)\n", cmd, CLI_PATH(env), sub, why);
    return -1;
}
