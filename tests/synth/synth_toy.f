tests/synth/synth_toy_pkg.sv
tests/synth/synth_toy.sv
