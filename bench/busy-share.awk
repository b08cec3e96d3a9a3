# SPDX-License-Identifier: GPL-2.0
# perf report --sort dso,sym lines ("  12.34%  [kernel]  [k] sym") to the
# idle share and each symbol's share of the busy samples, top 40.
/^ *[0-9.]+%/ {
	pct = $1 + 0
	sym = $NF
	dso = $2
	if (sym ~ /^(native_safe_halt|default_idle|pv_native_safe_halt|acpi_safe_halt|mwait_idle|default_idle_call|cpuidle_idle_call|do_idle)$/) {
		idle += pct
		next
	}
	n++
	name[n] = sym " " dso
	share[n] = pct
	busy += pct
}
END {
	printf "idle %.1f%% of all samples; below, shares of the busy samples\n", idle
	for (i = 1; i <= n && i <= 40; i++)
		if (busy > 0)
			printf "%6.2f%%  %s\n", 100 * share[i] / busy, name[i]
}
