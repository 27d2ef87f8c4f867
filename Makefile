# Tandem — the two commands a new user needs:
#   make demo   build everything and run the main job on the embedded default
#   make test   run the whole test suite
SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(PATH)

CARGO  ?= cargo
TANDEM := target/release/tandem
OUT    ?= out/demo
# The demo trace: the enterprise workload, load-balancer address plan.
DEMO_WORKLOAD ?= enterprise
DEMO_FLOWS    ?= 4000
DEMO_SEED     ?= 1

.PHONY: all bootstrap build demo test lint fmt bench clean

all: build

bootstrap:
	@bash scripts/bootstrap.sh

build: bootstrap
	$(CARGO) build --release --locked

demo: build
	@mkdir -p $(OUT)
	$(TANDEM) traffic gen --workload $(DEMO_WORKLOAD) --flows $(DEMO_FLOWS) --seed $(DEMO_SEED) --plan lb -o $(OUT)/trace.pcapng
	$(TANDEM) traffic stats $(OUT)/trace.pcapng
	$(TANDEM) host examples/nfs/minilb/minilb.cc --in $(OUT)/trace.pcapng --out-dir $(OUT)/host
	@echo
	@echo "tcpdump reads the output:" && tcpdump -nr $(OUT)/host/port1.pcap -c 3 2>/dev/null
	@echo
	@echo "== Gallium partition of MiniLB for Tofino 1 (full report: tandem partition ... --target tofino1) =="
	$(TANDEM) partition examples/nfs/minilb/minilb.cc --target tofino1 -o $(OUT)/plan.json --dot $(OUT)/deps.dot | sed -n '1p;/== to the server ==/,$$p'

test: bootstrap
	$(CARGO) test --workspace --locked

lint: bootstrap
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

fmt:
	$(CARGO) fmt --all

bench: build
	$(TANDEM) switch bench

clean:
	$(CARGO) clean
	rm -rf out
