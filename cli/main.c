/* tcsim - command-line front end of the tensor-core golden model. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

static const cli_cmd *const commands[] = {
    &cmd_dot,
    &cmd_gemm,
    &cmd_list,
    &cmd_bench,
    &cmd_demo,
    &cmd_vectors,
    &cmd_hmma_trace,
    &cmd_mma,
    &cmd_tmem_map,
    &cmd_tmem_demo,
    &cmd_emit_pkg,
    &cmd_fedp_params,
    &cmd_timing,
    &cmd_conv,
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: tcsim <command> [options]   (tcsim <command> --help for its options)\n\n"
               "tcsim " TCSIM_VERSION ": bit-exact golden model of GPU tensor cores.\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-12s %s\n", commands[i]->name, commands[i]->summary);
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (cli_is_help(argv[1]) || !strcmp(argv[1], "--version")) {
        if (argc > 2) {
            fprintf(stderr, "tcsim: unexpected argument '%s' after %s\n", CLI_WORD(argv[2]),
                    argv[1]);
            return CLI_USAGE;
        }
        if (cli_is_help(argv[1]))
            usage(stdout);
        else
            printf("tcsim %s\n", TCSIM_VERSION);
        return CLI_OK;
    }
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(argv[1], commands[i]->name))
            return commands[i]->run(argc - 1, argv + 1);
    fprintf(stderr, "tcsim: unknown command '%s' (tcsim --help lists them)\n", CLI_WORD(argv[1]));
    return CLI_USAGE;
}

int main(int argc, char **argv)
{
    int rc = dispatch(argc, argv);
    /* Results go to stdout through stdio's buffer: a full disk or a closed pipe shows
     * only here, and a run whose output was lost has not succeeded. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "tcsim: cannot write the output: %s\n", strerror(errno));
        return rc != CLI_OK ? rc : CLI_FAIL;
    }
    return rc;
}
