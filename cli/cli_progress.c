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
    p->last = 0;
    p->t0 = seconds_now();
}

void cli_progress_show(cli_progress *p, uint64_t done, uint64_t total)
{
    double t = seconds_now() - p->t0;
    unsigned pct = (unsigned)(total ? done * 100 / total : 100);
    unsigned step = p->tty ? pct : pct / 10; /* a hundredth on a terminal, else a tenth */
    /* the first line on a terminal at once; after it, one a step */
    if ((!p->force && t < 2.0) || ((p->shown || !p->tty) && step <= p->last))
        return;
    p->last = step;
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
