#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# padnet's test runner. Runs host checks (selftests/host/*.sh) and guest
# scenarios (selftests/scenarios/*.sh) on every kernel each one names,
# prints TAP, and ends with "N passed, N failed, N skipped". KUnit cases
# that a scenario brings back as KTAP count one test each.
#
# The kernels the runs need are built one after the other in the
# background, at nice 19, while the runs go on in the order the kernels
# come: first what needs none, then Debian's kernel, check, sanitizer, up.
# A cold run so builds the next kernels while the guests of the last one
# wait on timers, pacing and boots.
#
# usage: run.sh [NAME...]      NAME: a scenario or host check, without .sh
# env:   PADNET_KERNELS        only these kernels (default: what each names)
#        PADNET_FULL=1         the full sizes: guests see PADNET_full=1, and
#                              a scenario's "# timeout-full:" applies
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
resdir=$top/build/results
passed=0 failed=0 skipped=0 n=0
failures=()

tap() {	# tap pass|fail|skip NAME [REASON]
	n=$((n + 1))
	case $1 in
	pass) passed=$((passed + 1)); echo "ok $n - $2" ;;
	skip) skipped=$((skipped + 1)); echo "ok $n - $2 # SKIP ${3:-}" ;;
	*) failed=$((failed + 1)); failures+=("$2"); echo "not ok $n - $2${3:+ # $3}" ;;
	esac
}

header() {	# header FILE KEY DEFAULT
	local v
	v=$(sed -n "s/^# $2: *//p" "$1" | head -n 1)
	echo "${v:-$3}"
}

kernel_dir() { qemu-net/build-kernel.sh "$1"; }

# The order kernels are built in and runs are grouped by: the source tree
# first (the style checks read it), then by how soon the runs need them.
kernel_order="source distro check sanitizer up"
kstate=$resdir/kernels

kernel_rank() {	# KERNEL: its place in $kernel_order
	local k i=1
	for k in $kernel_order; do
		[ "$k" = "$1" ] && { echo "$i"; return; }
		i=$((i + 1))
	done
	echo "$i"
}

# start_builds KERNEL...: build them in order in their own process group,
# each kernel's exit status in $kstate/KERNEL.rc when it is done.
start_builds() {
	rm -rf "$kstate"
	mkdir -p "$kstate"
	# shellcheck disable=SC2016
	setsid nice -n 19 bash -c 'state=$1; shift
		for k in "$@"; do
			qemu-net/build-kernel.sh "$k" > /dev/null 2> "$state/$k.log"
			echo $? > "$state/$k.rc"
		done' builds "$kstate" "$@" &
	builder=$!
	trap 'kill -- -"$builder" 2>/dev/null' EXIT
}

wait_kernel() {	# KERNEL: wait for its build; false if it failed
	local k=$1 t0=$SECONDS next=60
	while [ ! -f "$kstate/$k.rc" ]; do
		if [ $((SECONDS - t0)) -ge "$next" ]; then
			echo "# waiting for the $k kernel, $((next / 60)) min so far: $(tail -n 1 "$kstate/$k.log" 2>/dev/null)"
			next=$((next + 60))
		fi
		sleep 2
	done
	[ "$(cat "$kstate/$k.rc")" = 0 ] && return 0
	tail -n 40 "$kstate/$k.log" | sed 's/^/# /'
	return 1
}

prepare_kernel() {	# kernel, modules, tools and initramfs once per run
	local k=$1
	case " ${prepared:-} " in *" $k "*) return 0 ;; esac
	case " ${unbuildable:-} " in *" $k "*) return 1 ;; esac
	mkdir -p "$resdir"
	if ! wait_kernel "$k"; then
		unbuildable="${unbuildable:-} $k"
		return 1
	fi
	echo "# preparing our modules and the initramfs for the $k kernel (log: $resdir/build-$k.log)"
	if ! make -s initramfs FLAVOUR="$k" > "$resdir/build-$k.log" 2>&1; then
		tail -n 40 "$resdir/build-$k.log" | sed 's/^/# /'
		unbuildable="${unbuildable:-} $k"
		return 1
	fi
	prepared="${prepared:-} $k"
}

run_host_check() {
	local name=$1 log=$resdir/host-$1.log rc t0=$SECONDS k
	mkdir -p "$resdir"
	# Kernels the check builds against: waited for here, so that a cold
	# build is reported as such rather than inside the check's log.
	rc=0
	for k in $(header "selftests/host/$name.sh" kernels ""); do
		wait_kernel "$k" || { rc=1; break; }
	done
	if [ "$rc" = 0 ]; then
		PADNET_TOP=$top "selftests/host/$name.sh" > "$log" 2>&1
		rc=$?
	else
		echo "the $k kernel did not build" > "$log"
	fi
	case $rc in
	0) tap pass "host:$name ($((SECONDS - t0)) s)" ;;
	4) tap skip "host:$name ($((SECONDS - t0)) s)" "$(tail -n 1 "$log")" ;;
	*) sed 's/^/# /' "$log" | tail -n 40; tap fail "host:$name ($((SECONDS - t0)) s)" ;;
	esac
}

qemu_left_behind() {	# any of this run's QEMU PIDs still alive?
	local pid
	for pid in $(cat "$1/pids" 2>/dev/null); do
		kill -0 "$pid" 2>/dev/null && return 0
	done
	pgrep -f -- "$1/" > /dev/null
}

# kernel_reports OUT: dmesg-scan every guest; prints what it finds.
kernel_reports() {
	local g found=1
	for g in "$1"/*/results; do
		[ -f "$g/dmesg.txt" ] || continue
		selftests/lib/dmesg-scan.sh "$g/dmesg.txt" "$g/kmemleak.txt" && continue
		found=0
	done
	return $found
}

ktap_cases() {	# report every KUnit case the guests brought back
	local f
	for f in "$1"/*/results/*.ktap; do
		[ -f "$f" ] || continue
		awk -f selftests/lib/ktap-cases.awk "$f" | while read -r st cname why; do
			echo "$st $(basename "$f" .ktap):$cname $why"
		done
	done
}

show_output() {
	local g
	for g in "$1"/*/results/output.log; do
		[ -f "$g" ] && tail -n 40 "$g" | sed "s|^|# $(basename "$(dirname "$(dirname "$g")")"): |"
	done
}

run_scenario() {
	local name=$1 k=$2 file=selftests/scenarios/$1.sh out rc expect
	local id="$name@$k" g st cname reported=0 bad=0 allskip=1 t0
	local timeout append extra=() overlay
	out=$resdir/$id
	expect=$(header "$file" expect pass)
	timeout=$(header "$file" timeout 300)
	append=$(header "$file" append '')
	if [ -n "${PADNET_FULL:-}" ]; then
		timeout=$(header "$file" timeout-full "$timeout")
		append="$append padnet.full=1"
	fi
	if ! prepare_kernel "$k"; then
		tap fail "$id" "kernel, modules or initramfs did not build"
		return
	fi
	t0=$SECONDS
	# "# initrd-extra: COMMAND": a host command, given the kernel's name,
	# that prints the path of a cpio.gz the guests boot with on top of the
	# initramfs (padtun-dkms: the modules dkms built, the packaged tools).
	overlay=$(header "$file" initrd-extra '')
	if [ -n "$overlay" ]; then
		echo "# $id: $overlay $k"
		# shellcheck disable=SC2086
		if ! overlay=$($overlay "$k" 2> "$out.overlay.log"); then
			tail -n 20 "$out.overlay.log" | sed 's/^/# /'
			tap fail "$id" "its initrd-extra command failed"
			return
		fi
		extra=(--initrd-extra "$overlay")
	fi
	echo "# $id: $(header "$file" guests 1) guest(s), at most $timeout s"
	qemu-net/run-guests.sh \
		--kernel "$(kernel_dir "$k")/arch/x86/boot/bzImage" \
		--initrd "build/$k/initramfs.cpio.gz" \
		--run "/selftests/scenarios/$name.sh" --out "$out" \
		--guests "$(header "$file" guests 1)" --cpus "$(header "$file" cpus 2)" \
		--mem "$(header "$file" mem 512)" --timeout "$timeout" \
		--kernel-name "$k" --modules "$(header "$file" modules '' | tr ' ' ',')" \
		--append "$append" "${extra[@]}" > "$out.log" 2>&1
	rc=$?
	id="$id ($((SECONDS - t0)) s)"
	grep -h '^smoke:\|^demo:' "$out"/*/results/output.log 2>/dev/null | sed 's/^/# /'

	if qemu_left_behind "$out"; then
		tap fail "$id" "a QEMU process of this run is still alive"
		return
	fi
	case $expect in
	timeout)
		if [ "$rc" = 124 ] && grep -q 'timed out' "$out.log" &&
		   grep -q 'sleeping forever' "$out.log"; then
			tap pass "$id"
		else
			cat "$out.log" | sed 's/^/# /'
			tap fail "$id" "expected a timeout with the console shown (rc $rc)"
		fi
		return ;;
	stall)
		if [ "$rc" = 124 ] && grep -q 'stalled before /init; booting again' "$out.log" &&
		   grep -q ' 2 boot(s)' "$out.log"; then
			tap pass "$id"
		else
			sed 's/^/# /' "$out.log"
			tap fail "$id" "expected one more boot after the stall, then a timeout (rc $rc)"
		fi
		return ;;
	dmesg-report)
		kernel_reports "$out" > "$out.scan" && reported=1
		if [ "$rc" = 0 ] && [ "$reported" = 1 ]; then
			tap pass "$id"
		else
			tap fail "$id" "expected the dmesg scan to report (rc $rc)"
		fi
		return ;;
	esac

	if [ "$rc" != 0 ]; then
		sed 's/^/# /' "$out.log"
		tap fail "$id" "guests did not finish (rc $rc)"
		return
	fi
	while read -r st cname why; do
		case $st in
		PASS) tap pass "$cname" ;;
		SKIP) tap skip "$cname" "$why" ;;
		*) tap fail "$cname" ;;
		esac
	done < <(ktap_cases "$out" | sed "s/:/@$k:/")
	for g in "$out"/*/results/status; do
		st=$(cat "$g")
		[ "$st" = 4 ] || allskip=0
		[ "$st" = 0 ] || [ "$st" = 4 ] || bad=1
	done
	if kernel_reports "$out" > "$out.scan"; then
		sed 's/^/# /' "$out.scan"
		bad=1
	fi
	if [ "$bad" = 1 ]; then
		show_output "$out"
		tap fail "$id"
	elif [ "$allskip" = 1 ]; then
		tap skip "$id" "$(tail -n 1 "$out"/a/results/output.log)"
	else
		tap pass "$id"
	fi
}

names=("$@")
if [ ${#names[@]} = 0 ]; then
	for f in selftests/host/*.sh selftests/scenarios/*.sh; do
		[ -f "$f" ] && names+=("$(basename "$f" .sh)")
	done
fi

# The plan: one line per run, "RANK host NAME" or "RANK scenario NAME
# KERNEL", RANK that of the last kernel the run needs.
plan=$(for name in "${names[@]}"; do
	if [ -f "selftests/host/$name.sh" ]; then
		rank=0
		for k in $(header "selftests/host/$name.sh" kernels ""); do
			r=$(kernel_rank "$k")
			[ "$r" -gt "$rank" ] && rank=$r
		done
		echo "$rank host $name"
	elif [ -f "selftests/scenarios/$name.sh" ]; then
		for k in $(header "selftests/scenarios/$name.sh" kernels check); do
			case " ${PADNET_KERNELS:-$k} " in
			*" $k "*) echo "$(kernel_rank "$k") scenario $name $k" ;;
			esac
		done
	else
		echo "0 missing $name"
	fi
done | sort -s -n -k1,1)

# The kernels the plan needs, in build order (a kernel build unpacks the
# source tree itself when no host check asked for it first).
needed=" $(while read -r _ kind name k; do
	case $kind in
	host) header "selftests/host/$name.sh" kernels "" ;;
	scenario) echo "$k" ;;
	esac
done <<< "$plan" | tr ' ' '\n' | sort -u | tr '\n' ' ') "
builds=()
for k in $kernel_order; do
	case $needed in *" $k "*) builds+=("$k") ;; esac
done
# A kernel the order does not know comes last (build-kernel.sh fails for
# a name it does not know either): waiting for it must not wait forever.
for k in $needed; do
	case " $kernel_order " in *" $k "*) ;; *) builds+=("$k") ;; esac
done
mkdir -p "$resdir"
start_builds "${builds[@]}"

echo "TAP version 13"
# The plan on fd 3: what the runs start must not read it from stdin.
while read -r _ kind name k <&3; do
	case $kind in
	host) run_host_check "$name" ;;
	scenario) run_scenario "$name" "$k" ;;
	missing) tap fail "$name" "no such scenario or host check" ;;
	esac
done 3<<< "$plan"
echo "1..$n"
for f in "${failures[@]}"; do
	echo "# failed: $f"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
