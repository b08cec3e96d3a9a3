# SPDX-License-Identifier: GPL-2.0
#
# padnet: the padata core, the padtun device and the QEMU test bed.
#
#   make demo                 two guests on Debian's kernel, every mode once, a table
#                             (demo/run.sh; more rounds: PADNET_ROUNDS=5 make demo)
#   make bench                the measurement: every mode and test, repeated (bench/run.sh)
#   make test                 every test scenario; last line "N passed, N failed"
#   make test T=NAME          one scenario (see selftests/scenarios/)
#   make modules FLAVOUR=F    padata.ko, padtun.ko and the test modules for kernel F
#   make lint                 checkpatch --strict, sparse and kernel-doc on padata/ and net/
#   make deb                  padnet-dkms and padnet-tools .deb files in build/deb/ (packaging/)
#   make clean                remove build/ (the kernel cache stays)
#
# Kernels, module builds and initramfs images live outside the tracked tree:
# kernels in $(PADNET_CACHE), the rest in build/ (ignored by git).

PADNET_CACHE ?= $(HOME)/.cache/padnet
export PADNET_CACHE
FLAVOUR ?= check
B := $(CURDIR)/build/$(FLAVOUR)

DEBIAN_PACKAGES := linux-source-6.1 gcc make flex bison bc libelf-dev \
	libssl-dev cpio qemu-system-x86 qemu-utils iproute2 iperf3 \
	busybox-static ethtool kmod xz-utils patch rsync sparse dwarves python3 strace \
	wireguard-tools linux-perf gnuplot-nox \
	dkms lintian dpkg-dev

.PHONY: all deps kernel modules tools initramfs deb demo bench test lint clean

all: initramfs

deps:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "deps: installing $$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends $$missing; \
	fi

kernel: deps
	@qemu-net/build-kernel.sh $(FLAVOUR) > /dev/null

TOOLS := build/tools

modules: kernel
	@qemu-net/build-modules.sh "$$(qemu-net/build-kernel.sh $(FLAVOUR))" $(B)/src \
		-s W=1 KCFLAGS=-Werror

tools: deps
	@mkdir -p $(TOOLS)
	@$(MAKE) -s -C selftests/tools O=$(CURDIR)/$(TOOLS)
	@gcc -O2 -Wall -Wextra -Werror -fPIC -shared -Inet/include/uapi \
		-o $(TOOLS)/link_padtun.so net/iproute2/link_padtun.c
	@net/iproute2/check-symbols.sh $(TOOLS)/link_padtun.so

# The guest image: qemu-net's base system plus this flavour's modules, the
# selftests tools and scripts, and the iproute2 plugin where ip looks for it.
initramfs: modules tools
	@rm -rf $(B)/root && mkdir -p $(B)/root/usr/local/bin $(B)/root/usr/lib/x86_64-linux-gnu/ip $(B)/root/selftests
	@qemu-net/guest-modules.sh "$$(qemu-net/build-kernel.sh $(FLAVOUR))" $(B)/root \
		$(wildcard $(B)/src/padata/*.ko $(B)/src/net/*.ko \
			$(B)/src/selftests/modules/*.ko $(B)/src/bench/*.ko)
	@cp $(TOOLS)/seqcheck $(TOOLS)/replayinject $(TOOLS)/udpload $(B)/root/usr/local/bin/
	@cp $(TOOLS)/link_padtun.so $(B)/root/usr/lib/x86_64-linux-gnu/ip/
	@cp -a selftests/lib selftests/scenarios $(B)/root/selftests/
	@cp -a demo bench $(B)/root/
	@qemu-net/initramfs.sh $(B)/initramfs.cpio.gz $(B)/root

# The packages to install padnet with: padnet-dkms (module sources and
# dkms.conf) and padnet-tools (iproute2 plugin, seqcheck, ...), lintian
# clean (selftests/host/deb.sh checks that and builds with dkms).
deb: deps
	@packaging/build-debs.sh build/deb

# The main job: two guests on Debian's kernel, every mode, a table.
demo: deps
	@demo/run.sh

# The measurement to quote (docs/benchmarks.md); never part of make test.
bench: deps
	@bench/run.sh

# Every test on every kernel; the runner builds each kernel, the modules
# and the initramfs the first time a scenario needs them.
test: deps
	@selftests/run.sh $(T)

# The host style checks alone (they are part of "make test" too).
lint: deps
	@selftests/run.sh checkpatch sparse kernel-doc

# What the build wrote into the tree; the kernel cache ($(PADNET_CACHE))
# stays, since it takes minutes to fill again: rm -rf it by hand.
clean:
	rm -rf build
