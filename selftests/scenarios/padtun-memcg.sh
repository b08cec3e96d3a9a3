#!/bin/sh
# A link's memory is charged to the memory cgroup of whoever created it:
# its per-CPU state (counters, the padata instances' queues, the route
# cache), its rings, and its sessions, made later by the handshake work,
# which runs in no one's cgroup. A shell in a new cgroup creates a link
# looped onto its own endpoint (it makes its sessions alone): the cgroup's
# percpu bytes grow by at least the link's per-CPU state, and come back
# down when the link is deleted (the slab bytes are reported). Negative
# control (run by hand, see the note of the commit that added it): with
# plain GFP_KERNEL allocations the cgroup's percpu bytes grow by 1,184
# only, and the check fails.
# kernels: distro
# guests: 1
# cpus: 2
# mem: 512
# timeout: 180
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

CG=/sys/fs/cgroup
# On 2 CPUs a link's per-CPU state charged 4,000 bytes (padtun's counters,
# padata's queues and counters, the route cache), and 1,184 without the
# accounting (what the core charges of a netdev): halfway.
MIN=2600

# memstat NAME: a field of the test cgroup's memory.stat.
memstat() {
	sed -n "s/^$1 //p" $CG/creator/memory.stat
}

ip link set lo up
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
ok $? "cgroup2 mounted"
echo +memory > $CG/cgroup.subtree_control && mkdir $CG/creator &&
	echo $$ > $CG/creator/cgroup.procs
ok $? "this shell in a new memory cgroup"

percpu0=$(memstat percpu) slab0=$(memstat slab)
ip link add padtun0 type padtun local 127.0.0.1 remote 127.0.0.1 \
	port 5555 key "$KEY" cpus 0-1 &&
	padtun_up
ok $? "padtun0 created from it, looped onto its own endpoint"
t=0
until [ "$(stat sessions_made)" -ge 1 ] || [ $t -ge 50 ]; do
	sleep 0.1
	t=$((t + 1))
done
percpu1=$(memstat percpu) slab1=$(memstat slab)
echo "# charged: percpu +$((percpu1 - percpu0)), slab +$((slab1 - slab0)) bytes; sessions made $(stat sessions_made)"
[ $((percpu1 - percpu0)) -ge $MIN ]
ok $? "the link's per-CPU state is charged to the creator (+$((percpu1 - percpu0)) bytes)"

ip link del padtun0
ok $? "ip link del padtun0"
# Freed after an RCU grace period, some of it by a work item.
t=0
until [ "$(memstat percpu)" -le $((percpu0 + MIN / 2)) ] || [ $t -ge 50 ]; do
	sleep 0.1
	t=$((t + 1))
done
echo "# after the delete: percpu $(($(memstat percpu) - percpu0)) bytes above the start"
[ "$(memstat percpu)" -le $((percpu0 + MIN / 2)) ]
ok $? "given back when the link is deleted"
echo $$ > $CG/cgroup.procs
tap_exit
