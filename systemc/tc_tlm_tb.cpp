// tc_tlm_tb.cpp - one command stream through two tc_tlm_target instances, one backed by
// the C model and one by the Verilated RTL (rtl/tc_warp.sv in SystemC mode), compared
// command by command: status, D bit for bit, and the cycles each annotates. Then a
// tensor-memory stream (rtl/tmem.sv against tcsim_tmem.h: status, cycles, loaded words)
// on each organization (8 and 4 banks per lane group), and the targets' error paths.
//
// usage: tc_tlm_tb [seed [count]]     prints PASSED or FAILED (exit status 0 / 1; 2 for a
//                                     bad argument)
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include "tc_rtl_backend.h"
#include "tc_tlm.h"

namespace {

struct initiator : sc_core::sc_module {
    using socket = tlm_utils::simple_initiator_socket<initiator>;
    // The wmma stream and the 8-bank tensor memory through to_model / to_rtl; the 4-bank
    // tensor memory through to_model4 / to_rtl4.
    socket to_model, to_rtl, to_model4, to_rtl4;
    struct pair {
        socket *model, *rtl;
        unsigned banks;
    };
    unsigned seed, count;
    sc_core::sc_time clock; // the targets' period
    int failures = 0, checked = 0, tmem_checked = 0, tmem_two_cycle = 0;
    SC_HAS_PROCESS(initiator);
    initiator(sc_core::sc_module_name n, unsigned s, unsigned c, const sc_core::sc_time &p)
        : sc_module(n), to_model("to_model"), to_rtl("to_rtl"), to_model4("to_model4"),
          to_rtl4("to_rtl4"), seed(s), count(c), clock(p)
    {
        SC_THREAD(run);
    }

    uint32_t rnd()
    {
        seed = seed * 1103515245u + 12345u;
        return seed >> 8;
    }
    // A finite fp16 pattern (the RTL and the model agree on specials too, but finite
    // values exercise the alignment and rounding that differ between implementations).
    uint32_t fp16()
    {
        uint32_t v = rnd() & 0xffff;
        return (v & 0x7c00) == 0x7c00 ? v & 0xbfff : v;
    }

    // delay starts at `start`, the initiator's local time offset (how far it already runs
    // ahead of the kernel); the target adds its annotation to it.
    tlm::tlm_response_status send(socket &s, tc_tlm_cmd &cmd, sc_core::sc_time &delay,
                                  const sc_core::sc_time &start = sc_core::SC_ZERO_TIME)
    {
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_WRITE_COMMAND);
        t.set_address(0);
        t.set_data_ptr(reinterpret_cast<unsigned char *>(&cmd));
        t.set_data_length(sizeof cmd);
        t.set_streaming_width(sizeof cmd);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        delay = start;
        s->b_transport(t, delay);
        return t.get_response_status();
    }

    void fail(const char *what, unsigned i)
    {
        std::printf("FAIL command %u: %s\n", i, what);
        failures++;
    }

    // One tensor-memory command to both targets (the RTL's ld gets its own buffer);
    // status, cycles, the annotated delay and an ld's data must agree. Returns whether
    // both accepted it.
    bool tmem_both(const pair &p, tc_tlm_cmd &cm, const sc_core::sc_time &period, unsigned i)
    {
        std::vector<uint32_t> rtl_data(cm.data ? 32 * TC_TMEM_SLICE : 0);
        tc_tlm_cmd cr = cm;
        if (cm.op == TC_TLM_TMEM_LD && cm.data)
            cr.data = rtl_data.data();
        sc_core::sc_time dm, dr;
        tlm::tlm_response_status rm = send(*p.model, cm, dm);
        tlm::tlm_response_status rr = send(*p.rtl, cr, dr);
        tmem_checked++;
        static const char *const names[] = {"wmma", "st", "ld", "shift"};
        char what[160];
        std::snprintf(what, sizeof what, "%u banks: %s group %u col %u ncols %u", p.banks,
                      names[cm.op], cm.group, cm.col, cm.ncols);
        if (rm != rr || cm.status != cr.status) {
            std::printf("FAIL tmem command %u (%s): model %s, RTL %s\n", i, what,
                        tc_strerror(cm.status), tc_strerror(cr.status));
            failures++;
            return false;
        }
        tmem_two_cycle += cm.status == TC_OK && cm.cycles == 2;
        if (cm.cycles != cr.cycles) {
            std::printf("FAIL tmem command %u (%s): cycles model %llu, RTL %llu\n", i, what,
                        (unsigned long long)cm.cycles, (unsigned long long)cr.cycles);
            failures++;
        }
        if (dm != period * static_cast<double>(cm.cycles) ||
            dr != period * static_cast<double>(cr.cycles))
            fail("tmem: annotated delay is not cycles x period", i);
        if (cm.op == TC_TLM_TMEM_LD && cm.status == TC_OK &&
            !std::equal(cm.data, cm.data + 32 * cm.ncols, cr.data)) {
            std::printf("FAIL tmem command %u (%s): the loaded words differ\n", i, what);
            failures++;
        }
        return cm.status == TC_OK;
    }

    // The tensor memory: one stream through both targets. The RTL's words are undefined
    // until written, so the stream first stores every lane of its columns (504..511 and
    // 0..7, a window that wraps, and 32..63), then stores, loads and shifts inside them
    // only; then requests both must refuse, which must leave the memory as it was.
    void tmem_stream(const pair &p, const sc_core::sc_time &period)
    {
        bool defined[TC_TMEM_COLS] = {};
        std::vector<uint32_t> data(32 * TC_TMEM_SLICE);
        unsigned i = 0;
        for (unsigned col : {504u, 0u, 32u, 40u, 48u, 56u})
            for (unsigned g = 0; g < TC_TMEM_GROUPS; g++, i++) {
                for (auto &x : data)
                    x = rnd();
                tc_tlm_cmd c = {};
                c.op = TC_TLM_TMEM_ST;
                c.group = g;
                c.col = col;
                c.ncols = TC_TMEM_SLICE;
                c.data = data.data();
                if (!tmem_both(p, c, period, i))
                    return;
                for (unsigned k = 0; k < TC_TMEM_SLICE; k++)
                    defined[(col + k) % TC_TMEM_COLS] = true;
            }
        const unsigned stream = 300;
        for (unsigned n = 0; n < stream; n++, i++) {
            tc_tlm_cmd c = {};
            unsigned r = rnd() % 10;
            c.op = r < 4 ? TC_TLM_TMEM_ST : r < 8 ? TC_TLM_TMEM_LD : TC_TLM_TMEM_SHIFT;
            c.group = rnd() % TC_TMEM_GROUPS;
            c.ncols = c.op == TC_TLM_TMEM_SHIFT ? TC_TMEM_SLICE : 1 + rnd() % TC_TMEM_SLICE;
            bool inside;
            do { // a window of defined columns
                c.col = rnd() % TC_TMEM_COLS;
                inside = true;
                for (unsigned k = 0; k < c.ncols; k++)
                    inside = inside && defined[(c.col + k) % TC_TMEM_COLS];
            } while (!inside);
            for (auto &x : data)
                x = c.op == TC_TLM_TMEM_ST ? rnd() : 0xdeadbeefu;
            c.data = c.op == TC_TLM_TMEM_SHIFT ? nullptr : data.data();
            if (!tmem_both(p, c, period, i))
                fail("a valid tensor-memory command refused", i);
        }
        // Requests both must refuse, with the same status and no time; the columns 32..39
        // of every group read the same before and after them.
        std::vector<uint32_t> before(TC_TMEM_GROUPS * 32 * TC_TMEM_SLICE);
        auto load_window = [&](unsigned g, uint32_t *out) {
            tc_tlm_cmd c = {};
            c.op = TC_TLM_TMEM_LD;
            c.group = g;
            c.col = 32;
            c.ncols = TC_TMEM_SLICE;
            c.data = out;
            tmem_both(p, c, period, i++);
        };
        for (unsigned g = 0; g < TC_TMEM_GROUPS; g++)
            load_window(g, &before[g * 32 * TC_TMEM_SLICE]);
        struct bad { tc_tlm_opcode op; unsigned group, col, ncols; bool data; };
        for (const bad &b : {bad{TC_TLM_TMEM_LD, 0, 512, 8, true},
                             bad{TC_TLM_TMEM_ST, 4, 32, 8, true},
                             bad{TC_TLM_TMEM_LD, 1, 32, 0, true},
                             bad{TC_TLM_TMEM_LD, 1, 32, 9, true},
                             bad{TC_TLM_TMEM_ST, 2, 32, 4, false},
                             bad{TC_TLM_TMEM_SHIFT, 0, 600, 8, false}}) {
            tc_tlm_cmd c = {};
            c.op = b.op;
            c.group = b.group;
            c.col = b.col;
            c.ncols = b.ncols;
            c.data = b.data ? data.data() : nullptr;
            if (tmem_both(p, c, period, i++) || c.status != TC_EINVAL)
                fail("a bad tensor-memory request was not refused with TC_EINVAL", i - 1);
        }
        for (unsigned g = 0; g < TC_TMEM_GROUPS; g++) {
            load_window(g, data.data());
            if (!std::equal(data.begin(), data.end(), &before[g * 32 * TC_TMEM_SLICE]))
                fail("a refused tensor-memory request changed the memory", i - 1);
        }
    }

    // Refusals on a target: a valid m16n16k16 wmma spoiled in one way at a time (an
    // operand missing, an opcode that is none of tc_tlm_opcode; the payload not a write,
    // not at address 0, not sizeof(tc_tlm_cmd) long, no data pointer, a short streaming
    // width, byte enables). Each must be answered (TLM_GENERIC_ERROR_RESPONSE with
    // TC_EINVAL for the command; for the payload the base protocol's status, the command
    // untouched) without writing D, without adding to the initiator's delay and without
    // simulated time.
    void refusals(socket &s, const sc_core::sc_time &period)
    {
        std::vector<uint32_t> A(16 * 16), B(16 * 16), C(16 * 16), D(16 * 16, 0xfeedu);
        for (auto &x : A)
            x = fp16();
        for (auto &x : B)
            x = fp16();
        for (auto &x : C)
            x = (rnd() & 0x807fffffu) | 0x3c000000u;
        auto valid = [&] {
            tc_tlm_cmd c = {};
            c.op = TC_TLM_WMMA;
            c.cfg = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_ROW, TC_FMT_FP32};
            c.A = A.data();
            c.B = B.data();
            c.C = C.data();
            c.D = D.data();
            c.status = TC_EIO; // neither what a refusal nor what a success writes
            c.cycles = 12345;
            return c;
        };
        const sc_core::sc_time start = period * 7.0;
        auto refused = [&](const char *what, const char *how) {
            std::printf("FAIL refusal: %s (%s)\n", what, how);
            failures++;
        };
        auto untouched = [&](const sc_core::sc_time &d, const sc_core::sc_time &t0,
                             const char *what) {
            if (d != start)
                refused(what, "the delay changed");
            if (sc_core::sc_time_stamp() != t0)
                refused(what, "simulated time passed");
            if (std::count(D.begin(), D.end(), 0xfeedu) != (long)D.size())
                refused(what, "D was written");
        };
        { // the valid command itself is accepted (or the rest would prove nothing)
            tc_tlm_cmd c = valid();
            sc_core::sc_time d;
            if (send(s, c, d) != tlm::TLM_OK_RESPONSE || c.status != TC_OK)
                refused("the valid wmma", "refused");
            std::fill(D.begin(), D.end(), 0xfeedu);
        }
        for (int k = 0; k < 5; k++) {
            tc_tlm_cmd c = valid();
            static const char *const what[] = {
                "wmma without A accepted", "wmma without B accepted",
                "wmma without C accepted", "wmma without D accepted",
                "an unknown opcode accepted"};
            if (k == 0)
                c.A = nullptr;
            else if (k == 1)
                c.B = nullptr;
            else if (k == 2)
                c.C = nullptr;
            else if (k == 3)
                c.D = nullptr;
            else
                c.op = static_cast<tc_tlm_opcode>(4);
            sc_core::sc_time d, t0 = sc_core::sc_time_stamp();
            if (send(s, c, d, start) != tlm::TLM_GENERIC_ERROR_RESPONSE ||
                c.status != TC_EINVAL || c.cycles != 0)
                refused(what[k], "not TLM_GENERIC_ERROR_RESPONSE, TC_EINVAL, 0 cycles");
            untouched(d, t0, what[k]);
        }
        std::vector<unsigned char> big(sizeof(tc_tlm_cmd) + 8);
        unsigned char enables[sizeof(tc_tlm_cmd)];
        std::memset(enables, TLM_BYTE_ENABLED, sizeof enables);
        // The base protocol's answer to each (IEEE 1666, the response status attribute).
        static const struct {
            const char *what;
            tlm::tlm_response_status want;
        } faults[] = {
            {"a read payload", tlm::TLM_COMMAND_ERROR_RESPONSE},
            {"an ignore payload", tlm::TLM_COMMAND_ERROR_RESPONSE},
            {"a payload at address 4", tlm::TLM_ADDRESS_ERROR_RESPONSE},
            {"a payload one byte short", tlm::TLM_BURST_ERROR_RESPONSE},
            {"a payload one byte long", tlm::TLM_BURST_ERROR_RESPONSE},
            {"a payload without data", tlm::TLM_GENERIC_ERROR_RESPONSE},
            {"a streaming width one byte short", tlm::TLM_BURST_ERROR_RESPONSE},
            {"byte enables (all enabled)", tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE},
        };
        for (int k = 0; k < 8; k++) {
            const char *what = faults[k].what;
            tc_tlm_cmd c = valid();
            tlm::tlm_generic_payload t;
            t.set_command(k == 0 ? tlm::TLM_READ_COMMAND
                                 : k == 1 ? tlm::TLM_IGNORE_COMMAND : tlm::TLM_WRITE_COMMAND);
            t.set_address(k == 2 ? 4 : 0);
            t.set_data_ptr(reinterpret_cast<unsigned char *>(&c));
            t.set_data_length(sizeof c + (k == 3 ? -1 : 0));
            if (k == 4) { // the command, then 8 more bytes
                std::memcpy(big.data(), &c, sizeof c);
                t.set_data_ptr(big.data());
                t.set_data_length(sizeof c + 1);
            }
            if (k == 5)
                t.set_data_ptr(nullptr);
            t.set_streaming_width(t.get_data_length() - (k == 6 ? 1 : 0));
            if (k == 7) {
                t.set_byte_enable_ptr(enables);
                t.set_byte_enable_length(sizeof enables);
            }
            t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            sc_core::sc_time d = start, t0 = sc_core::sc_time_stamp();
            s->b_transport(t, d);
            if (k == 4)
                std::memcpy(&c, big.data(), sizeof c);
            if (t.get_response_status() != faults[k].want || c.status != TC_EIO ||
                c.cycles != 12345) {
                tlm::tlm_generic_payload expected;
                expected.set_response_status(faults[k].want);
                std::printf("FAIL refusal: %s answered %s, expected %s with the command "
                            "untouched\n", what, t.get_response_string().c_str(),
                            expected.get_response_string().c_str());
                failures++;
            }
            untouched(d, t0, what);
        }
    }

    void run()
    {
        const sc_core::sc_time period = clock;
        for (unsigned i = 0; i < count; i++) {
            tc_hmma_cfg cfg = {i % 3 == 2 ? TC_SHAPE_M8N8K4 : TC_SHAPE_M16N16K16,
                               (rnd() & 1) ? TC_LAYOUT_COL : TC_LAYOUT_ROW,
                               (rnd() & 1) ? TC_LAYOUT_COL : TC_LAYOUT_ROW,
                               (i & 1) ? TC_FMT_FP16 : TC_FMT_FP32};
            unsigned m, n, k, tiles;
            tc_shape_dims(cfg.shape, &m, &n, &k, &tiles);
            std::vector<uint32_t> A(tiles * m * k), B(tiles * k * n), C(tiles * m * n),
                Dm(tiles * m * n, 0xdead), Dr(tiles * m * n, 0xbeef);
            for (auto &x : A)
                x = fp16();
            for (auto &x : B)
                x = fp16();
            for (auto &x : C) // fp32 accumulators: an fp16 value widened is exact
                x = cfg.acc == TC_FMT_FP16 ? fp16() : (rnd() & 0x807fffffu) | 0x3c000000u;
            tc_tlm_cmd cm = {};
            cm.op = TC_TLM_WMMA;
            cm.cfg = cfg;
            cm.A = A.data();
            cm.B = B.data();
            cm.C = C.data();
            cm.D = Dm.data();
            tc_tlm_cmd cr = cm;
            cr.D = Dr.data();
            sc_core::sc_time dm, dr;
            const sc_core::sc_time start = period * static_cast<double>(i % 3 * 5);
            sc_core::sc_time t0 = sc_core::sc_time_stamp();
            tlm::tlm_response_status rm = send(to_model, cm, dm, start);
            tlm::tlm_response_status rr = send(to_rtl, cr, dr, start);
            sc_core::sc_time spent = sc_core::sc_time_stamp() - t0;
            checked++;
            if (rm != tlm::TLM_OK_RESPONSE || rr != tlm::TLM_OK_RESPONSE ||
                cm.status != TC_OK || cr.status != TC_OK) {
                fail("a backend refused a valid wmma", i);
                continue;
            }
            if (Dm != Dr)
                fail("D differs between the model and the RTL", i);
            if (cm.cycles != cr.cycles)
                std::printf("FAIL command %u: cycles model %llu, RTL %llu\n", i,
                            (unsigned long long)cm.cycles, (unsigned long long)cr.cycles),
                    failures++;
            // And they are the documented ones (docs/volta_tensor_core.md, Figure 9's
            // pipeline: first dispatch to D readable): m16n16k16 "done 46" with fp32
            // accumulators, 56 with fp16; m8n8k4 T(last) 24 and 25 less issue_offset 8.
            const bool f16 = cfg.acc == TC_FMT_FP16;
            const uint64_t want =
                cfg.shape == TC_SHAPE_M8N8K4 ? (f16 ? 17 : 16) : (f16 ? 56 : 46);
            if (cm.cycles != want)
                std::printf("FAIL command %u: %llu cycles, documented %llu\n", i,
                            (unsigned long long)cm.cycles, (unsigned long long)want),
                    failures++;
            if (dm != start + period * static_cast<double>(cm.cycles) ||
                dr != start + period * static_cast<double>(cr.cycles))
                fail("annotated delay is not the initiator's delay + cycles x period", i);
            if (spent == sc_core::SC_ZERO_TIME)
                fail("the RTL took no simulated time", i);
            if (i < 6)
                std::printf("wmma %-9s %s a %s b %s: %llu cycles (model), %llu (RTL), D %s\n",
                            tc_shape_name(cfg.shape), cfg.acc == TC_FMT_FP16 ? "f16" : "f32",
                            tc_layout_name(cfg.a_layout), tc_layout_name(cfg.b_layout),
                            (unsigned long long)cm.cycles, (unsigned long long)cr.cycles,
                            Dm == Dr ? "equal" : "DIFFERENT");
        }

        tmem_stream({&to_model, &to_rtl, 8}, period);
        tmem_stream({&to_model4, &to_rtl4, 4}, period);

        // The error paths of each target.
        for (auto *s : {&to_model, &to_rtl, &to_model4, &to_rtl4})
            refusals(*s, period);
        for (auto *s : {&to_model, &to_rtl, &to_model4, &to_rtl4}) {
            tc_tlm_cmd c = {};
            sc_core::sc_time d;
            c.op = TC_TLM_WMMA;
            if (send(*s, c, d) != tlm::TLM_GENERIC_ERROR_RESPONSE || c.status == TC_OK)
                fail("wmma without operands accepted", 0);
            tlm::tlm_generic_payload t; // a read, of the wrong length: not a command
            unsigned char byte = 0;
            t.set_command(tlm::TLM_READ_COMMAND);
            t.set_data_ptr(&byte);
            t.set_data_length(1);
            t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            (*s)->b_transport(t, d);
            if (t.get_response_status() != tlm::TLM_COMMAND_ERROR_RESPONSE)
                fail("a malformed payload accepted", 0);
        }
        std::printf("%d wmma and %d tensor-memory commands compared (%d two-cycle requests), "
                    "%d failures\n", checked, tmem_checked, tmem_two_cycle, failures);
        sc_core::sc_stop();
    }
};

// An argument in [min, max], decimal or 0x hex, all of it digits; false if not.
bool parse_arg(const char *s, unsigned long min, unsigned long max, unsigned *out)
{
    const bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *d = hex ? s + 2 : s;
    if (!*d || std::strspn(d, hex ? "0123456789abcdefABCDEF" : "0123456789") != std::strlen(d))
        return false;
    errno = 0;
    unsigned long v = std::strtoul(d, nullptr, hex ? 16 : 10);
    if (errno || v < min || v > max)
        return false;
    *out = (unsigned)v;
    return true;
}

} // namespace

int sc_main(int argc, char **argv)
{
    unsigned seed = 1, count = 24;
    if (argc > 3 || (argc > 1 && !parse_arg(argv[1], 0, 0xffffffffUL, &seed)) ||
        (argc > 2 && !parse_arg(argv[2], 1, 100000, &count))) {
        std::fprintf(stderr, "usage: tc_tlm_tb [SEED [COUNT]]  (SEED a 32-bit integer, COUNT "
                             "of wmma commands 1 to 100000; decimal or 0x hex)\n");
        return 2;
    }
    // Not 1 ns, so that a target annotating cycles x 1 ns instead of its period is seen.
    const sc_core::sc_time period(2, sc_core::SC_NS);
    tc_model_backend model(8), model4(4);
    tc_rtl_backend rtl("rtl", period, 8), rtl4("rtl4", period, 4);
    tc_tlm_target model_target("model_target", model, period);
    tc_tlm_target rtl_target("rtl_target", rtl, period);
    tc_tlm_target model4_target("model4_target", model4, period);
    tc_tlm_target rtl4_target("rtl4_target", rtl4, period);
    initiator init("initiator", seed, count, period);
    init.to_model.bind(model_target.socket);
    init.to_rtl.bind(rtl_target.socket);
    init.to_model4.bind(model4_target.socket);
    init.to_rtl4.bind(rtl4_target.socket);
    sc_core::sc_start();
    bool ok = init.failures == 0 && init.checked == (int)count && init.tmem_checked > 0 &&
              init.tmem_two_cycle > 0;
    std::printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
