#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# padnet's test runner. Runs host checks (selftests/host/*.sh) and guest
# scenarios (selftests/scenarios/*.sh) on every kernel each one names,
# prints TAP, and ends with "N passed, N failed, N skipped". KUnit cases
# that a scenario brings back as KTAP count one test each.
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

prepare_kernel() {	# build kernel, modules, tools and initramfs once per run
	local k=$1
	case " ${prepared:-} " in *" $k "*) return 0 ;; esac
	case " ${unbuildable:-} " in *" $k "*) return 1 ;; esac
	echo "# preparing the $k kernel, our modules and the initramfs (log: $resdir/build-$k.log)"
	mkdir -p "$resdir"
	# The kernel first, on its own: a cold build says what it does itself.
	if ! qemu-net/build-kernel.sh "$k" > /dev/null ||
	   ! make -s initramfs FLAVOUR="$k" > "$resdir/build-$k.log" 2>&1; then
		tail -n 40 "$resdir/build-$k.log" | sed 's/^/# /'
		unbuildable="${unbuildable:-} $k"
		return 1
	fi
	prepared="${prepared:-} $k"
}

run_host_check() {
	local name=$1 log=$resdir/host-$1.log rc t0=$SECONDS k
	mkdir -p "$resdir"
	# Kernels the check builds against, first and on their own: a cold
	# build says what it does itself rather than inside the check's log.
	for k in $(header "selftests/host/$name.sh" kernels ""); do
		qemu-net/build-kernel.sh "$k" > /dev/null || break
	done
	PADNET_TOP=$top "selftests/host/$name.sh" > "$log" 2>&1
	rc=$?
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
	local timeout append
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
	echo "# $id: $(header "$file" guests 1) guest(s), at most $timeout s"
	qemu-net/run-guests.sh \
		--kernel "$(kernel_dir "$k")/arch/x86/boot/bzImage" \
		--initrd "build/$k/initramfs.cpio.gz" \
		--run "/selftests/scenarios/$name.sh" --out "$out" \
		--guests "$(header "$file" guests 1)" --cpus "$(header "$file" cpus 2)" \
		--mem "$(header "$file" mem 512)" --timeout "$timeout" \
		--kernel-name "$k" --modules "$(header "$file" modules '' | tr ' ' ',')" \
		--append "$append" > "$out.log" 2>&1
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

echo "TAP version 13"
for name in "${names[@]}"; do
	if [ -f "selftests/host/$name.sh" ]; then
		run_host_check "$name"
	elif [ -f "selftests/scenarios/$name.sh" ]; then
		for k in $(header "selftests/scenarios/$name.sh" kernels check); do
			case " ${PADNET_KERNELS:-$k} " in
			*" $k "*) run_scenario "$name" "$k" ;;
			esac
		done
	else
		tap fail "$name" "no such scenario or host check"
	fi
done
echo "1..$n"
for f in "${failures[@]}"; do
	echo "# failed: $f"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
