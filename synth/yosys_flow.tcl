# yosys_flow.tcl - the one synthesis recipe of every block (yosys -c, Yosys 0.23).
#
# synth/synth.py runs it once per block with the block in the environment:
#   SYNTH_TOP       top module
#   SYNTH_FILES     RTL files in read order: rtl/rtl.f, then the block's extra lists
#   SYNTH_PARAMS    "NAME VALUE ..." for chparam (negative values already as 32'sh...)
#   SYNTH_BLACKBOX  modules kept as empty boxes (memory macros), may be empty
#   SYNTH_BOXES     where to write the black-box instances and their parameters
#   SYNTH_LIBERTY   standard-cell liberty (OSU 0.18 um)
#   SYNTH_DRIVER    liberty cell that drives the inputs (the STA's convention), for ABC
#   SYNTH_DELAY_PS  delay target of ABC's mapping, in ps (the STA clock period)
#   SYNTH_NETLIST   mapped netlist to write
#   SYNTH_STAT      `stat -json` of the mapped design to write
#
# Stage register names survive into the netlist (keep on every *_q wire, after
# mapping so that it changes no logic): the STA script finds each stage's flops by them.
yosys -import

proc env_or_die {name} {
    if {![info exists ::env($name)]} {
        error "yosys_flow.tcl: $name is not set (run synth/synth.py, not this file)"
    }
    return $::env($name)
}

set top      [env_or_die SYNTH_TOP]
set files    [env_or_die SYNTH_FILES]
set params   [env_or_die SYNTH_PARAMS]
set bboxes   [env_or_die SYNTH_BLACKBOX]
set liberty  [env_or_die SYNTH_LIBERTY]
set delay_ps [env_or_die SYNTH_DELAY_PS]
set netlist  [env_or_die SYNTH_NETLIST]
set statfile [env_or_die SYNTH_STAT]
set boxfile  [env_or_die SYNTH_BOXES]
set driver   [env_or_die SYNTH_DRIVER]

if {![file readable $liberty]} {
    error "yosys_flow.tcl: liberty file $liberty is missing or unreadable"
}

# One read of every file: the packages come first in rtl.f, so later files see them.
read_verilog -sv {*}$files
foreach m $bboxes {
    blackbox $m
}
set chparam_args {}
foreach {name value} $params {
    lappend chparam_args -set $name $value
}
if {[llength $chparam_args]} {
    chparam {*}$chparam_args $top
}

# -noshare: no SAT-based resource sharing. In a block of many alike units (the tensor
# core's 16 FEDPs, a chain of 32 FMAs) every unit's operators become candidates of every
# other's, and the SAT queries ran over half an hour before we stopped them. One recipe
# for every block keeps the fused/baseline comparison fair; what sharing could merge
# (e.g. an instance's fp16 and fp32 rounders) is left unmerged in all of them alike.
synth -flatten -noshare -top $top
# No undriven nets, no multiple drivers, no combinational loops.
check -assert

dfflibmap -liberty $liberty
# ABC: Yosys's own mapping script for -liberty with a delay target (strash ... &nf),
# then fanout buffering and gate sizing against the same target. Without the last
# three steps nothing limits fanout: a format select feeding every decoder alone costs
# several ns (a BUFX2 driving 0.7 pF), and the critical paths would measure that rather
# than the datapath. {D} is replaced by Yosys with -D <delay_ps>.
set abc_script "+strash;&get,-n;&fraig,-x;&put;scorr;dc2;dretime;strash;&get,-n;&dch,-f;&nf,{D};&put;buffer,-p;upsize,{D};dnsize,{D};stime,-p"
# ABC takes its inputs (ports and flop outputs) as ideal drivers unless told otherwise,
# and then never buffers their fanout: a valid bit enabling 14,000 flops of the tensor
# core came out as one 80 ns net. The STA's driver cell, given to ABC, makes it buffer.
set constr [file rootname $netlist].abc_constr
set fh [open $constr w]
puts $fh "set_driving_cell $driver"
close $fh
abc -D $delay_ps -liberty $liberty -constr $constr -script $abc_script
setundef -zero
opt_clean

# Everything must now be a liberty cell (or a declared black box): an internal $-cell
# left here would be missing from the area and the timing.
select -assert-none t:\$*

# Black boxes: record each instance with its parameters (the storage estimate), name
# the instances <module>_<n> (`yosys rename`: Tcl has a rename of its own), then cut
# them out: their pins become ports of the top (<module>_<n>__<pin>), which the STA
# script times as the memory's access and setup.
set fh [open $boxfile w]
close $fh
foreach m $bboxes {
    tee -q -a $boxfile dump t:$m
    yosys rename -hide t:$m
    yosys rename -enumerate -pattern ${m}_% t:$m
    expose -evert -sep __ t:$m
}

setattr -set keep 1 w:*_q
opt_clean -purge
# One-bit nets: OpenSTA's Verilog reader takes no part-select on the left of an assign.
splitnets -format __
opt_clean -purge

tee -o [file rootname $statfile].txt stat -liberty $liberty
tee -q -o $statfile stat -json
write_verilog -noattr -noexpr -nohex -nodec $netlist
