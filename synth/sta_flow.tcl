# sta_flow.tcl - static timing of one mapped netlist (OpenSTA 2.0, `sta -no_init -exit`).
#
# synth/synth.py runs it once per block with the block in the environment:
#   STA_LIBERTY   standard-cell liberty (the one the netlist was mapped to)
#   STA_NETLIST   mapped netlist (yosys_flow.tcl)
#   STA_TOP       top module
#   STA_CLOCK     clock port
#   STA_PERIOD    clock period in ns (also ABC's delay target)
#   STA_STAGE_FILE  one line per pipeline stage: its name, then the instances of its
#                 registers (synth.py finds them by the register names of the RTL); a
#                 stage is the logic in front of its registers
#   STA_DRIVER    liberty cell/pin that drives every data input (e.g. BUFX2/Y)
#   STA_LOAD      liberty cell/pin whose capacitance loads every output (e.g. DFFPOSX1/D)
#   STA_BOX_FILE  black-box memories cut out of the netlist (yosys_flow.tcl): lines
#                 "input NS PORT..." - ports that were a memory's outputs, launched NS
#                 after the clock (access time) - and "output NS PORT..." - ports that
#                 were its inputs, due NS before the clock (setup); may be empty
#
# Conventions, the same for every block so that blocks compare: ideal clock, inputs
# launched at the clock edge by a BUFX2-strength driver, outputs captured at the next
# edge with a load of one flop input, no wire load model (the liberty's cells only).
#
# Prints, for synth.py to read:
#   RESULT critical_ns <ns>      minimum period: clock period minus the worst slack
#   RESULT endpoint <pin>        end of the critical path
#   STAGE <name> <ns> <flops>    the same, over the paths ending at one stage's flops
#                                (box_write / box_read: into and out of the memories)
# and the critical path itself (report_checks) for the log.

proc env_or_die {name} {
    if {![info exists ::env($name)]} {
        error "sta_flow.tcl: $name is not set (run synth/synth.py, not this file)"
    }
    return $::env($name)
}

set liberty [env_or_die STA_LIBERTY]
set netlist [env_or_die STA_NETLIST]
set top     [env_or_die STA_TOP]
set clk     [env_or_die STA_CLOCK]
set period  [env_or_die STA_PERIOD]
set stage_file [env_or_die STA_STAGE_FILE]
set box_file [env_or_die STA_BOX_FILE]
set driver  [split [env_or_die STA_DRIVER] /]
set load    [split [env_or_die STA_LOAD] /]

foreach f [list $liberty $netlist] {
    if {![file readable $f]} {
        error "sta_flow.tcl: $f is missing or unreadable"
    }
}
# read_verilog reports syntax errors but carries on; link_design then fails on the top.
if {![read_liberty $liberty]} {
    error "sta_flow.tcl: cannot read liberty $liberty"
}
read_verilog $netlist
if {![link_design $top]} {
    error "sta_flow.tcl: cannot link $top from $netlist (see the errors above)"
}

create_clock -name clk -period $period [get_ports $clk]
set data_inputs [delete_from_list [all_inputs] [get_ports $clk]]
set_input_delay 0 -clock clk $data_inputs
set_driving_cell -lib_cell [lindex $driver 0] -pin [lindex $driver 1] $data_inputs
set_output_delay 0 -clock clk [all_outputs]
set load_cell [lindex [get_lib_cells */[lindex $load 0]] 0]
set load_pin [get_lib_pins [get_full_name $load_cell]/[lindex $load 1]]
set_load [get_property $load_pin capacitance] [all_outputs]

set box_in {}
set box_out {}
set bf [open $box_file r]
while {[gets $bf line] >= 0} {
    set ports [get_ports [lrange $line 2 end]]
    if {[lindex $line 0] == "input"} {
        set_input_delay [lindex $line 1] -clock clk $ports
        lappend box_in {*}$ports
    } else {
        set_output_delay [lindex $line 1] -clock clk $ports
        lappend box_out {*}$ports
    }
}
close $bf
# A memory's clock pin is one of those ports too: the clock reaching it is no data path.
if {[llength $box_out]} {
    set_false_path -from [get_ports $clk] -to $box_out
}

# find_timing_paths reports in seconds.
proc path_ns {period path_end} {
    return [expr {$period - [$path_end slack] * 1e9}]
}

# One worst path per path group (clk, and the asynchronous set/reset checks of flops
# that have them): the critical one is the least slack of all, not the first group's.
set ends [find_timing_paths -path_delay max -group_count 1 -endpoint_count 1]
if {[llength $ends] == 0} {
    error "sta_flow.tcl: no constrained timing path in $top"
}
set worst [lindex $ends 0]
foreach e $ends {
    if {[$e slack] < [$worst slack]} {
        set worst $e
    }
}
puts [format "RESULT critical_ns %.4f" [path_ns $period $worst]]
puts "RESULT endpoint [get_full_name [[$worst vertex] pin]]"

set sf [open $stage_file r]
while {[gets $sf line] >= 0} {
    set name [lindex $line 0]
    set flops [get_cells [lrange $line 1 end]]
    set stage_ends [find_timing_paths -to $flops -path_delay max -group_count 1 -endpoint_count 1]
    if {[llength $stage_ends] == 0} {
        puts "STAGE $name 0 [llength $flops]"
    } else {
        puts [format "STAGE %s %.4f %d" $name [path_ns $period [lindex $stage_ends 0]] [llength $flops]]
    }
}
close $sf

# The memories: the slowest path into their inputs (write) and out of their outputs (read).
foreach {name kind objs} [list box_write -to $box_out box_read -from $box_in] {
    if {[llength $objs] == 0} {
        continue
    }
    set box_ends [find_timing_paths $kind $objs -path_delay max -group_count 1 -endpoint_count 1]
    if {[llength $box_ends]} {
        puts [format "STAGE %s %.4f 0" $name [path_ns $period [lindex $box_ends 0]]]
    }
}

report_checks -path_delay max -format full -digits 3
