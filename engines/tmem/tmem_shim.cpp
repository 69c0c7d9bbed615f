// tmem_shim.cpp - the only C++ of engines/tmem: owns the VerilatedContext and one
// Verilated tmem (Vtmem8, Vtmem4 or the narrow-word Vtmem8w4, Vtmem4w4) and exports the
// C API of tmem_dut.h.
#include <array>
#include <cstring>
#include <memory>

#include "Vtmem4.h"
#include "Vtmem4w4.h"
#include "Vtmem8.h"
#include "Vtmem8w4.h"
#include "verilated.h"
#include "verilated_syms.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include "tmem_dut.h"
#include "../shim_coverage.h"

namespace {

constexpr unsigned kWide = TC_TMEM_WIDE_WORDS;
constexpr unsigned kQuarter = TC_TMEM_QUARTER_WORDS;
constexpr unsigned kGL = TC_TMEM_GROUP_LANES;

// The RTL packs word i of a data vector (and lane i of a bank row) at [i*W +: W]; the C
// side has one uint32_t per word. With W = 32 that is the same memory layout. Narrower
// words are packed 32/W to a uint32_t (a Verilated vector of up to 64 bits is a QData,
// which on a little-endian host has the same layout as two of them).
template <unsigned W>
void pack(uint32_t *dst, const uint32_t *src, unsigned n) {
    static_assert(W >= 1 && 32 % W == 0, "the word width must divide 32");
    if constexpr (W == 32) {
        std::memcpy(dst, src, n * 4);
    } else {
        constexpr unsigned per = 32 / W;
        constexpr uint32_t mask = (1u << W) - 1;
        for (unsigned j = 0; j < n / per; j++) {
            uint32_t x = 0;
            for (unsigned k = 0; k < per; k++) x |= (src[j * per + k] & mask) << (k * W);
            dst[j] = x;
        }
    }
}

template <unsigned W>
void unpack(uint32_t *dst, const uint32_t *src, unsigned n) {
    if constexpr (W == 32) {
        std::memcpy(dst, src, n * 4);
    } else {
        constexpr unsigned per = 32 / W;
        constexpr uint32_t mask = (1u << W) - 1;
        for (unsigned i = 0; i < n; i++) dst[i] = (src[i / per] >> (i % per * W)) & mask;
    }
}

// What the C side needs from either Verilated class.
struct Dut {
    virtual ~Dut() = default;
    virtual void reset() = 0;
    virtual void set_reset(bool asserted) = 0;
    virtual void drive(const tc_tmem_inputs *in) = 0;
    virtual void step() = 0;
    virtual void sample_ready(tc_tmem_outputs *out) = 0;
    virtual void sample_read(tc_tmem_outputs *out) = 0;
    virtual void bank_row(unsigned g, unsigned b, unsigned row, uint32_t out[kGL]) const = 0;
    unsigned banks = 0;
    uint64_t cycles = 0;
};

// W: the model's WordW. Traced: Verilated with --trace-fst (the narrow model is not:
// its class has no trace()).
template <class V, unsigned W, bool Traced>
class DutImpl final : public Dut {
  public:
    DutImpl(unsigned nbanks, const char *fst_path) {
        banks = nbanks;
        // The context outlives the model and is configured before it is built.
        ctx_ = std::make_unique<VerilatedContext>();
#if VM_TRACE
        if constexpr (Traced)
            if (fst_path) ctx_->traceEverOn(true);
#endif
        top_ = std::make_unique<V>(ctx_.get(), "TOP");
#if VM_TRACE
        if constexpr (Traced) {
            if (fst_path) {
                tfp_ = std::make_unique<VerilatedFstC>();
                top_->trace(tfp_.get(), 99);
                tfp_->open(fst_path);
                trace_ok_ = tfp_->isOpen();
            }
        }
#else
        (void)fst_path;
#endif
        if constexpr (!Traced) trace_ok_ = !fst_path;  // a waveform it cannot write: refused
        // Storage and grant are read through the scope API: stable names, no internals.
        for (unsigned g = 0; g < TC_TMEM_GROUPS; g++)
            for (unsigned b = 0; b < banks; b++) {
                char name[96];
                std::snprintf(name, sizeof name, "TOP.tmem.gen_group[%u].gen_bank[%u].i_bank", g, b);
                mem_[g][b] = find_var(name, "mem_q");
            }
        grant_ = static_cast<const uint8_t *>(find_var("TOP.tmem", "grant"));
        top_->clk_i = 0;
        top_->rst_ni = 1;
        top_->eval();
        reset();
    }

    ~DutImpl() override {
        top_->final();
        shim_coverage_write(ctx_.get(), "tmem");
#if VM_TRACE
        if (tfp_) tfp_->close();
#endif
    }

    bool ok() const {
        if (!grant_ || !trace_ok_) return false;
        for (unsigned g = 0; g < TC_TMEM_GROUPS; g++)
            for (unsigned b = 0; b < banks; b++)
                if (!mem_[g][b]) return false;
        return true;
    }

    // rst_ni falls with the clock low (in reset the memory grants nothing, so a half-done
    // request writes no second half), stays low over one rising edge, then rises.
    void reset() override {
        tc_tmem_inputs idle{};
        top_->rst_ni = 0;
        drive(&idle);
        step();
        top_->rst_ni = 1;
    }

    void set_reset(bool asserted) override {
        top_->rst_ni = !asserted;
        top_->eval();
        dump();
    }

    void drive(const tc_tmem_inputs *in) override {
        V &t = *top_;
        t.clk_i = 0;
        t.d_valid_i = in->d_valid != 0;
        t.a_valid_i = in->a_valid != 0;
        t.shift_valid_i = in->shift_valid != 0;
        t.cp_valid_i = in->cp_valid != 0;
        t.ls_valid_i = in->ls_valid != 0;
        t.d_col_i = in->d_col;
        t.a_col_i = in->a_col;
        t.shift_col_i = in->shift_col;
        t.cp_col_i = in->cp_col;
        t.ls_col_i = in->ls_col;
        t.ls_store_i = in->ls_store != 0;
        t.ls_group_i = in->ls_group;
        t.ls_ncols_m1_i = (in->ls_ncols - 1) & 7u;
        std::memcpy(t.d_disable_i.data(), in->d_disable, sizeof in->d_disable);
        // The half-done request's port is read in its second cycle whatever its valid says.
        unsigned held = *grant_;
        if ((in->d_valid || (held & 1u << TC_TMEM_PORT_D)) && in->d_data)
            pack<W>(t.d_data_i.data(), in->d_data, kWide);
        if ((in->cp_valid || (held & 1u << TC_TMEM_PORT_CP)) && in->cp_data)
            pack<W>(t.cp_data_i.data(), in->cp_data, kWide);
        if ((in->ls_valid || (held & 1u << TC_TMEM_PORT_LS)) && in->ls_store && in->ls_data)
            pack<W>(t.ls_wdata_i.data(), in->ls_data, kQuarter);
        t.eval();
        dump();
    }

    void step() override {
        top_->clk_i = 1;
        top_->eval();
        dump();
        top_->clk_i = 0;  // the falling edge is evaluated with the next drive()
        cycles++;
    }

    void sample_ready(tc_tmem_outputs *out) override {
        const V &t = *top_;
        out->ready = (t.d_ready_o ? 1u << TC_TMEM_PORT_D : 0) |
                     (t.a_ready_o ? 1u << TC_TMEM_PORT_A : 0) |
                     (t.shift_ready_o ? 1u << TC_TMEM_PORT_SHIFT : 0) |
                     (t.cp_ready_o ? 1u << TC_TMEM_PORT_CP : 0) |
                     (t.ls_ready_o ? 1u << TC_TMEM_PORT_LS : 0);
        out->grant = *grant_;
    }

    void sample_read(tc_tmem_outputs *out) override {
        V &t = *top_;
        out->a_rvalid = t.a_rvalid_o;
        out->ls_rvalid = t.ls_rvalid_o;
        if constexpr (W == 32) {
            out->a_rdata = t.a_rdata_o.data();
            out->ls_rdata = t.ls_rdata_o.data();
        } else {  // one word per uint32_t, as the C side reads them
            unpack<W>(a_rdata_.data(), t.a_rdata_o.data(), kWide);
            unpack<W>(ls_rdata_.data(), t.ls_rdata_o.data(), kQuarter);
            out->a_rdata = a_rdata_.data();
            out->ls_rdata = ls_rdata_.data();
        }
    }

    void bank_row(unsigned g, unsigned b, unsigned row, uint32_t out[kGL]) const override {
        constexpr unsigned row_words = kGL * W / 32;  // mem_q rows are contiguous
        unpack<W>(out, static_cast<const uint32_t *>(mem_[g][b]) + (size_t)row * row_words, kGL);
    }

  private:
    void *find_var(const char *scope, const char *var) {
        const VerilatedScope *s = ctx_->scopeFind(scope);
        if (!s) return nullptr;
        VerilatedVar *v = s->varFind(var);
        return v ? v->datap() : nullptr;
    }

    void dump() {
#if VM_TRACE
        if (tfp_) tfp_->dump(ctx_->time());
#endif
        ctx_->timeInc(1);
    }

    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<V> top_;
#if VM_TRACE
    std::unique_ptr<VerilatedFstC> tfp_;
#endif
    void *mem_[TC_TMEM_GROUPS][8] = {};
    const uint8_t *grant_ = nullptr;
    bool trace_ok_ = true;  // false when the FST asked for cannot be written
    // The narrow model's read data, unpacked (unused with W = 32: the model's own).
    std::array<uint32_t, W == 32 ? 0 : kWide> a_rdata_{};
    std::array<uint32_t, W == 32 ? 0 : kQuarter> ls_rdata_{};
};

template <class V, unsigned W = 32, bool Traced = true>
Dut *make(unsigned banks, const char *fst_path) {
    auto *d = new DutImpl<V, W, Traced>(banks, fst_path);
    if (!d->ok()) {
        delete d;
        return nullptr;
    }
    return d;
}

}  // namespace

struct tmem_dut {
    Dut *impl;
};

extern "C" {

int tmem_dut_has_trace(void) { return VM_TRACE ? 1 : 0; }

tmem_dut *tmem_dut_new(unsigned banks, const char *fst_path) {
    return tmem_dut_new_word(banks, 32, fst_path);
}

tmem_dut *tmem_dut_new_word(unsigned banks, unsigned word_w, const char *fst_path) {
    Dut *impl = word_w == 32 && banks == 8  ? make<Vtmem8>(8, fst_path)
                : word_w == 32 && banks == 4 ? make<Vtmem4>(4, fst_path)
                : word_w == 4 && banks == 8  ? make<Vtmem8w4, 4, false>(8, fst_path)
                : word_w == 4 && banks == 4  ? make<Vtmem4w4, 4, false>(4, fst_path)
                                             : nullptr;
    if (!impl) return nullptr;
    return new tmem_dut{impl};
}

void tmem_dut_free(tmem_dut *d) {
    if (!d) return;
    delete d->impl;
    delete d;
}

unsigned tmem_dut_banks(const tmem_dut *d) { return d->impl->banks; }
void tmem_dut_reset(tmem_dut *d) { d->impl->reset(); }
void tmem_dut_set_reset(tmem_dut *d, int asserted) { d->impl->set_reset(asserted != 0); }
void tmem_dut_drive(tmem_dut *d, const tc_tmem_inputs *in) { d->impl->drive(in); }
void tmem_dut_step(tmem_dut *d) { d->impl->step(); }

void tmem_dut_cycle(tmem_dut *d, const tc_tmem_inputs *in, tc_tmem_outputs *out) {
    d->impl->drive(in);
    d->impl->sample_ready(out);
    d->impl->step();
    d->impl->sample_read(out);
}

void tmem_dut_sample_read(tmem_dut *d, tc_tmem_outputs *out) { d->impl->sample_read(out); }
void tmem_dut_sample_ready(tmem_dut *d, tc_tmem_outputs *out) { d->impl->sample_ready(out); }

int tmem_dut_peek(const tmem_dut *d, unsigned lane, unsigned col, uint32_t *out) {
    tc_tmem_loc l;
    if (!out || tc_tmem_map(d->impl->banks, lane, col, &l) != TC_OK) return -1;
    uint32_t row[kGL];
    d->impl->bank_row(l.group, l.bank, l.row, row);
    *out = row[l.group_lane];
    return 0;
}

int tmem_dut_bank_row(const tmem_dut *d, unsigned group, unsigned bank, unsigned row,
                      uint32_t out[TC_TMEM_GROUP_LANES]) {
    if (group >= TC_TMEM_GROUPS || bank >= d->impl->banks ||
        row >= TC_TMEM_COLS / d->impl->banks)
        return -1;
    d->impl->bank_row(group, bank, row, out);
    return 0;
}

uint64_t tmem_dut_cycle_count(const tmem_dut *d) { return d->impl->cycles; }

}  // extern "C"
