/* consumer - a program outside the tree that uses the installed library: one fp16 dot
 * product, and one mma through a handle, checked against known answers. */
#include <stdio.h>
#include "tcsim.h"

int main(void)
{
    const tc_profile *p;
    uint32_t a[4] = {0x3c00, 0x3c00, 0x3c00, 0x3c00}, b[4] = {0x3c00, 0x4000, 0x3c00, 0x3c00};
    uint32_t d = 0;
    if (tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_FP16, TC_FMT_FP32, &p) != TC_OK ||
        tc_dot(p, 4, a, b, 0x3f800000u, &d) != TC_OK || d != 0x40c00000u) { /* 1+1+2+1+1 */
        printf("FAIL: dot gave %08x\n", (unsigned)d);
        return 1;
    }
    tc_sim_config cfg;
    tc_sim_config_init(&cfg);
    tc_sim *s;
    if (tc_sim_create(&cfg, &s) != TC_OK)
        return 1;
    tc_sim_op op;
    tc_sim_op_init(&op);
    op.mma = (tc_mma_op){16, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
    uint64_t ticket, next;
    tc_sim_completion c;
    size_t n = 0;
    if (tc_sim_issue(s, &op, &ticket) != TC_OK || tc_sim_next_event(s, &next) != TC_OK)
        return 1;
    while (n == 0 && tc_sim_tick(s, 1) == TC_OK && tc_sim_poll(s, &c, 1, &n) == TC_OK)
        ;
    tc_sim_destroy(s);
    printf("tcsim %s: dot %08x, mma ready after %llu cycles\n", TCSIM_VERSION, (unsigned)d,
           (unsigned long long)c.ready);
    return c.ready == 26 ? 0 : 1;
}
