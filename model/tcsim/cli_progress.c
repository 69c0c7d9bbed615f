/* cli_progress.c - progress of a long run on stderr (cli.h). Quiet for the first two
 * seconds, so short runs print nothing and their stderr stays empty for scripts. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_start(cli_progress *p, const char *cmd, const char *what, int force)
{
    p->cmd = cmd;
    p->what = what;
    p->force = force;
    p->tty = isatty(fileno(stderr));
    p->shown = 0;
    p->tenths = 0;
    p->t0 = seconds_now();
}

void cli_progress_show(cli_progress *p, uint64_t done, uint64_t total)
{
    double t = seconds_now() - p->t0;
    unsigned pct = (unsigned)(total ? done * 100 / total : 100);
    if ((!p->force && t < 2.0) || (!p->tty && pct / 10 <= p->tenths))
        return;
    p->tenths = pct / 10;
    fprintf(stderr, "%stcsim %s: %3u%% of %llu %s, %.0f s%s", p->tty ? "\r" : "", p->cmd, pct,
            (unsigned long long)total, p->what, t, p->tty && done < total ? "" : "\n");
    fflush(stderr);
    p->shown = 1;
}

void cli_progress_abandon(cli_progress *p)
{
    if (p->shown && p->tty)
        fputc('\n', stderr); /* a message after it starts a line of its own */
}
