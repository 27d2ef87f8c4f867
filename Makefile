# Tandem — the two commands a new user needs:
#   make demo   build everything and run the main job on the embedded default
#   make test   run the whole test suite
SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(PATH)

CARGO  ?= cargo
TANDEM := target/release/tandem
OUT    ?= out/demo
# The demo: MazuNAT offloaded, on the enterprise workload with the NAT address plan.
DEMO_NF       ?= mazunat
DEMO_PLAN     ?= nat
DEMO_WORKLOAD ?= enterprise
DEMO_FLOWS    ?= 4000
DEMO_SEED     ?= 1
DEMO_PROFILE  ?= tofino1

.PHONY: all bootstrap build demo test lint fmt bench clean

all: build

bootstrap:
	@bash scripts/bootstrap.sh

build: bootstrap
	$(CARGO) build --release --locked

demo: build
	@mkdir -p $(OUT)
	@echo "== 1. compile $(DEMO_NF) for $(DEMO_PROFILE): switch.p4 + server.cc =="
	$(TANDEM) compile examples/nfs/$(DEMO_NF)/$(DEMO_NF).cc --target v1model --profile $(DEMO_PROFILE) -o $(OUT)/$(DEMO_NF)
	@echo
	@echo "== 2. run it offloaded: switch program on the software switch, server partition in the server host =="
	$(TANDEM) run $(OUT)/$(DEMO_NF) --workload $(DEMO_WORKLOAD) --flows $(DEMO_FLOWS) --seed $(DEMO_SEED) --plan $(DEMO_PLAN) --out-dir $(OUT)/run
	@echo
	@echo "tcpdump reads the output:" && tcpdump -nr $(OUT)/run/port1.pcap -c 3 2>/dev/null
	@echo
	@echo "== 3. check it against the original NF on the same traffic =="
	$(TANDEM) check examples/nfs/$(DEMO_NF)/$(DEMO_NF).cc --profile $(DEMO_PROFILE) --workload $(DEMO_WORKLOAD) --flows $(DEMO_FLOWS) --seed $(DEMO_SEED) --plan $(DEMO_PLAN)

test: bootstrap
	$(CARGO) test --workspace --locked

lint: bootstrap
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings
	# The cargo-fuzz targets live in their own workspace: keep them compiling.
	$(CARGO) check --locked --manifest-path crates/tandem-switch/fuzz/Cargo.toml

fmt:
	$(CARGO) fmt --all

# Every example NF x enterprise/datamining: baseline vs offloaded (callgrind counts, wall
# time, fast-path share, switch rate, compile time) -> BENCHMARKS.md + docs/bench/*.svg.
bench: build
	bash scripts/bench.sh

clean:
	$(CARGO) clean
	rm -rf out
