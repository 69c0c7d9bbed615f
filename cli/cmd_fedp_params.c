/* cmd_fedp_params.c - `tcsim fedp-params`: the parameter sets of FEDP instances, one line
 * each, for tools that cannot read rtl/tc_pkg.sv's presets (synth/synth.py) or want a set
 * the presets do not name. The sets come from fedp_params.c, as emit-pkg's presets do. */
#include <string.h>
#include "cli.h"
#include "fedp_params.h"

static void usage(void)
{
    const fedp_preset *ps;
    size_t n = fedp_presets(&ps);
    printf("usage: tcsim fedp-params [PRESET | NAME:ARCH:INSTR:FMT[,FMT...][:KIND,...]]...\n\n"
           "Prints the parameters of FEDP instances (rtl/fedp.sv, fedp_grouped.sv) read from\n"
           "the model's profile table, one line per argument (every preset when none):\n"
           "  NAME L F InFmts OutFmts EminAlignFp32 EminAlignFp16 Fp32ManBits ScaleFmts\n"
           "       ZeroPlusFp16 InPairs\n"
           "A PRESET is a set tc_pkg names FEDP_<PRESET>_*. A spec takes the FEDP rows of\n"
           "(ARCH, INSTR, FMT, fp32/fp16), of (.., FMT, OUT) alone for FMT written IN->OUT,\n"
           "the mixed pairs of two FMTs (InPairs 1), and the rows of each block-scaled KIND\n"
           "(mxf8f6f4, mxf4, mxf4nvf4); FMT '-' for none. Rows that disagree on a parameter\n"
           "are an error (exit 2).\n\npresets:\n");
    for (size_t i = 0; i < n; i++)
        printf("  %-20s %s\n", ps[i].name, ps[i].spec);
}

/* Prints the line of one argument; CLI_OK or CLI_USAGE with a message. */
static int one(const char *arg)
{
    const char *colon = strchr(arg, ':');
    const fedp_preset *ps = colon ? NULL : fedp_preset_find(arg);
    char err[256];
    fedp_params p;
    if (!colon && !ps) {
        fprintf(stderr, "tcsim fedp-params: unknown preset '%s' (tcsim fedp-params --help "
                        "lists them)\n", CLI_WORD(arg));
        return CLI_USAGE;
    }
    int name_len = colon ? (int)(colon - arg) : (int)strlen(arg);
    if (fedp_params_of(colon ? colon + 1 : ps->spec, &p, err, sizeof err)) {
        fprintf(stderr, "tcsim fedp-params: %s: %s\n", CLI_WORDN(arg, (size_t)name_len), err);
        return CLI_USAGE;
    }
    printf("%.*s", name_len, arg);
    for (int k = 0; k < FEDP_PARAM_COUNT; k++)
        printf(" %ld", fedp_param_get(&p, k));
    printf("\n");
    return CLI_OK;
}

static int fedp_params_run(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            usage();
            return CLI_OK;
        }
    if (argc < 2) {
        const fedp_preset *ps;
        size_t n = fedp_presets(&ps);
        for (size_t i = 0; i < n; i++)
            if (one(ps[i].name))
                return CLI_FAIL; /* a preset the table no longer gives: emit-pkg says so too */
        return CLI_OK;
    }
    for (int i = 1; i < argc; i++) {
        int rc = one(argv[i]);
        if (rc)
            return rc;
    }
    return CLI_OK;
}

const cli_cmd cmd_fedp_params = {"fedp-params", "parameter sets of the RTL's FEDP instances",
                                 fedp_params_run};
